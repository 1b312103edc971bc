const fastify = require("fastify")({ logger: true });
const id = (request) => Number(request.headers["x-request-id"]);
fastify.addHook("preHandler", async (request) => { console.log(`${id(request)} preHandler ${request.url}`); });
fastify.addHook("onRequest", (request, reply, done) => {
  console.log(`${id(request)} onRequest ${request.method} ${request.url}`);
  if (id(request) === 7 && request.url.startsWith("/tickets")) return reply.code(401).send({ error: "no" });
  done();
});
fastify.get("/health", async () => "ok");
fastify.post("/tickets", async (request, reply) => {
  const n = id(request);
  console.log(`${n} tickets user=${request.body.user} click=${request.body.click} key=${request.body.key}`);
  if (n === 0) return reply.code(201).send({ ok: true });
  if (n === 1) return { created: true };
  if (n === 2) { reply.code(204).send(); return; }
  if (n === 3) return reply.code(503).send({ error: "overloaded" });
  if (n === 4) { const e = new Error("gone"); e.statusCode = 410; throw e; }
  if (n === 5) { const e = new Error("teapot"); e.status = 418; throw e; }
  if (n === 6) return undefined;
  return reply.send(new Error("sent error"));
});
fastify.post("/orders/:id/pay", (request, reply) => {
  const n = id(request);
  console.log(`${n} pay params=${JSON.stringify(request.params)} url=${request.url}`);
  if (n === 0) throw new Error("sync throw");
  if (n === 1) return reply.code(202).send({ paid: request.params.id });
  if (n === 2) return { returned: true }; // a non-async handler's return value
  if (n === 3) { setTimeout(() => reply.send({ late: true }), 1); return; }
  if (n === 4) return Promise.reject(new Error("rejected"));
  reply.send("text");
});
fastify.listen({ port: 3000 });
