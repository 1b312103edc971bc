const express = require("express");
const app = express();
const id = (req) => Number(req.get("x-request-id"));
app.use(express.json());
app.use((req, res, next) => { console.log(`${id(req)} mw ${req.method} ${req.path} ${req.originalUrl}`); next(); });
app.use("/orders", (req, res, next) => { console.log(`${id(req)} orders-mw ${req.path} ${req.originalUrl}`); next(); });
app.get("/health", (req, res) => res.send("ok"));
app.post("/tickets", (req, res) => {
  const n = id(req);
  console.log(`${n} tickets user=${req.body.user} click=${req.body.click} key=${req.body.key}`);
  if (n === 0) return res.status(201).json({ ok: true });
  if (n === 1) return res.status(409).send("dup");
  if (n === 2) return res.sendStatus(204);
  if (n === 3) return res.status(503).json({ error: "overloaded" });
  if (n === 4) return res.end();
  if (n === 5) { res.json({ a: 1 }); try { res.json({ b: 2 }); } catch (e) { console.log(`${n} twice ${e.code}`); } return; }
  if (n === 6) return res.status(404).json({ error: "missing" });
  res.send();
});
app.post("/orders/:id/pay", (req, res, next) => {
  const n = id(req);
  console.log(`${n} pay params=${JSON.stringify(req.params)} url=${req.url}`);
  if (n === 0) return next(new Error("declined"));
  if (n === 1) { const e = new Error("gone"); e.status = 410; return next(e); }
  if (n === 2) { const e = new Error("teapot"); e.statusCode = 418; throw e; }
  if (n === 3) throw new Error("sync throw");
  if (n === 4) return next("route");
  if (n === 5) return next();
  res.json({ paid: req.params.id });
});
app.post("/orders/:id/pay", (req, res) => { console.log(`${id(req)} second pay handler`); res.status(202).json({}); });
app.post("/async/:id", async (req, res, next) => {
  const n = id(req);
  await new Promise((r) => setTimeout(r, 1));
  console.log(`${n} async after await`);
  if (n === 0) throw new Error("async throw");
  if (n === 1) return Promise.reject(new Error("async reject"));
  if (n === 2) return next(new Error("async next"));
  res.status(201).json({});
});
app.post("/nothing", (req, res) => { console.log(`${id(req)} nothing`); });
app.listen(3000);
