const express = require("express");
const app = express();
const api = express.Router();
const id = (req) => Number(req.get("x-request-id"));
app.use((req, res, next) => { console.log(`${id(req)} first body=${JSON.stringify(req.body)}`); next(); });
api.use((req, res, next) => { console.log(`${id(req)} api-mw ${req.baseUrl} ${req.path}`); if (id(req) === 5) return next("router"); next(); });
api.post("/users/:userId/orders/:slot", (req, res, next) => {
  const n = id(req);
  console.log(`${n} order ${JSON.stringify(req.params)} ${req.baseUrl} ${req.url} ${req.originalUrl}`);
  if (n === 0) return next(new Error("declined"));
  if (n === 1) { const e = new Error("bad input"); e.status = 400; throw e; }
  if (n === 2) return next();
  if (n === 3) { res.status(201).json({}); return next(new Error("after send")); }
  res.sendStatus(204);
});
app.use("/api", api);
app.post("/api/users/:userId/orders/:slot", (req, res) => { console.log(`${id(req)} app-level fallback`); res.status(207).end(); });
app.use((req, res, next) => { console.log(`${id(req)} not-found-mw`); if (id(req) === 2) return res.status(404).json({ error: "nope" }); next(); });
app.use((err, req, res, next) => {
  console.log(`${id(req)} error-mw ${err.message} sent=${res.headersSent}`);
  if (res.headersSent) return next(err);
  if (err.status === 400) return res.status(400).json({ error: err.message });
  next(err);
});
app.use((err, req, res, next) => { console.log(`${id(req)} second error-mw ${err.message}`); res.status(502).json({ error: "upstream" }); });
app.listen(3000);
