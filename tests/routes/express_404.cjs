const express = require("express");
const app = express();
app.use(express.json());
app.post("/only", (req, res, next) => { console.log(`only ${req.body.user}`); next(); });
app.get("/only", (req, res) => res.send("get"));
app.listen(3000);
