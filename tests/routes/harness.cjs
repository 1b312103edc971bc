// Runs a route script of tests/routes/ on the real Express or Fastify, to
// pin the simulation's behaviour against the libraries (tests/scripts.rs,
// "Express and Fastify against the real libraries"):
//
//   mkdir /tmp/routes-node && cd /tmp/routes-node && npm init -y &&
//   npm install express4@npm:express@4.22.3 express5@npm:express@5.3.0 fastify@5.12.8
//   NODE_PATH=/tmp/routes-node/node_modules node tests/routes/harness.cjs \
//     LIB SCRIPT 'METHOD /path' USERS CLICKS KEYS [sequential]
//
// LIB: express4 | express5 | fastify. The requests are the simulation's
// (users x clicks, id in order, key = user % keys): the route's path with
// its parameters filled as the prelude fills them, a JSON body `{ user,
// click, key }`, headers x-request-id and x-user-id; Express's over HTTP on
// loopback, Fastify's by `inject`. Prints, one a line, what the handlers
// log and `METHOD /url STATUS` per response (the simulation's access log;
// `hung` if none came in 300 ms), then `custom {...}` and `body ...` lines.
// An unhandled rejection is printed, not fatal (set NO_REJECTION_HANDLER=1
// to see Node 20 exit on it, as Express 4 leaves it). Compare with
// `interleave run --script SCRIPT --route 'METHOD /path' --trace
// 'users=N&clicks=1&keys=N'` (its `message` lines), both sorted.
const Module = require("module");
const http = require("http");
const path = require("path");
const [lib, script, route, users = "1", clicks = "1", keys = "1", sequential] = process.argv.slice(2);
const out = [];
const log = (line) => out.push(String(line));
const origLog = console.log;
console.log = (...args) => log(args.map((a) => (typeof a === "string" ? a : JSON.stringify(a))).join(" "));
console.error = () => {}; // Express's default error handler prints stacks
const counts = {};
globalThis.count = (name, n = 1) => (counts[name] = (counts[name] ?? 0) + n);
globalThis.sleep = (ms) => new Promise((r) => setTimeout(r, ms));
if (process.env.NO_REJECTION_HANDLER !== "1") {
  process.on("unhandledRejection", (error) => log(`unhandledRejection: ${error && error.message}`));
}

const apps = [];
const realRequire = Module.prototype.require;
Module.prototype.require = function (name) {
  if (name === "express") {
    const express = realRequire.call(this, lib === "express4" ? "express4" : "express5");
    const wrapped = function () {
      const app = express();
      app.listen = (...args) => { const cb = args.find((a) => typeof a === "function"); if (cb) setImmediate(cb); return { close() {} }; };
      apps.push({ kind: "express", app });
      return app;
    };
    Object.assign(wrapped, express);
    wrapped.default = wrapped;
    return wrapped;
  }
  if (name === "fastify") {
    const fastify = realRequire.call(this, "fastify");
    const wrapped = function (options) {
      const app = fastify({ ...(options ?? {}), logger: false });
      app.listen = (...args) => { const cb = args.find((a) => typeof a === "function"); if (cb) { setImmediate(() => cb(null, "x")); return undefined; } return Promise.resolve("x"); };
      apps.push({ kind: "fastify", app });
      return app;
    };
    wrapped.fastify = wrapped.default = wrapped;
    return wrapped;
  }
  return realRequire.call(this, name);
};

function fill(routePath, plain) {
  return routePath.replace(/:([A-Za-z0-9_]+)\??/g, (_, name) => String(/user/i.test(name) ? plain.user : plain.key));
}

async function main() {
  require(path.resolve(script));
  await new Promise((r) => setTimeout(r, 20));
  const [method, routePath] = route.split(" ");
  const requests = [];
  for (let u = 0; u < Number(users); u++)
    for (let c = 0; c < Number(clicks); c++)
      requests.push({ id: requests.length, user: u, click: c, key: u % Number(keys) });
  const { kind, app } = apps[0];
  let send;
  let server;
  if (kind === "express") {
    server = http.createServer(app);
    await new Promise((r) => server.listen(0, "127.0.0.1", r));
    const port = server.address().port;
    send = (plain, url) =>
      new Promise((resolve) => {
        const body = JSON.stringify({ user: plain.user, click: plain.click, key: plain.key });
        const req = http.request({ host: "127.0.0.1", port, method, path: url, headers: { "content-type": "application/json", "x-request-id": String(plain.id), "x-user-id": String(plain.user), "content-length": Buffer.byteLength(body) } }, (res) => {
          let data = "";
          res.on("data", (d) => (data += d));
          res.on("end", () => resolve({ status: res.statusCode, body: data }));
        });
        req.on("error", (e) => resolve({ status: "socket " + e.code, body: "" }));
        req.setTimeout(300, () => { req.destroy(); resolve({ status: "hung", body: "" }); });
        req.end(body);
      });
  } else {
    await app.ready();
    send = (plain, url) => {
      const answer = app.inject({ method, url, headers: { "content-type": "application/json", "x-request-id": String(plain.id), "x-user-id": String(plain.user) }, payload: { user: plain.user, click: plain.click, key: plain.key } })
        .then((res) => ({ status: res.statusCode, body: res.body }));
      return Promise.race([answer, new Promise((r) => setTimeout(() => r({ status: "hung", body: "" }), 300))]);
    };
  }
  const bodies = [];
  const run = async (plain) => {
    const url = fill(routePath, plain);
    const { status, body } = await send(plain, url);
    log(`${method} ${url} ${status}`);
    bodies.push(`body ${plain.id} ${status} ${JSON.stringify(body)}`);
  };
  if (!sequential) await Promise.all(requests.map(run));
  else for (const plain of requests) await run(plain);
  await new Promise((r) => setTimeout(r, 20));
  if (server) server.close();
  else await app.close();
  for (const line of out) origLog(line);
  origLog(`custom ${JSON.stringify(counts)}`);
  for (const line of bodies.sort()) origLog(line);
  process.exit(0);
}
main().catch((e) => { origLog("harness error", e.stack); process.exit(1); });
