const fastify = require("fastify")();
const id = (request) => Number(request.headers["x-request-id"]);
fastify.post("/pay/:userId", async (request, reply) => {
  const n = id(request);
  console.log(`${n} handler ${JSON.stringify(request.params)} checked=${request.checked}`);
  if (n === 1) throw new Error("declined");
  if (n === 2) { const e = new Error("conflict"); e.statusCode = 409; throw e; }
  if (n === 3) { reply.code(404); throw new Error("after code"); }
  return { ok: n };
});
fastify.addHook("preHandler", (request, reply, done) => { console.log(`${id(request)} preHandler`); request.checked = true; done(); });
fastify.addHook("onRequest", async (request, reply) => {
  console.log(`${id(request)} onRequest`);
  if (id(request) === 4) throw new Error("hook failed");
  if (id(request) === 5) { reply.code(429).send({ error: "slow down" }); return reply; }
});
fastify.addHook("preValidation", async (request) => { console.log(`${id(request)} preValidation`); });
fastify.setErrorHandler(async (error, request, reply) => {
  console.log(`${id(request)} errorHandler ${error.message} ${reply.statusCode}`);
  if (reply.statusCode === 409) return reply.send({ error: "conflict!" });
  if (error.message === "after code") throw error;
  reply.code(503).send({ error: error.message });
});
fastify.register(async (child) => {
  child.addHook("preHandler", async (request) => console.log(`${id(request)} child preHandler`));
  child.setErrorHandler((error, request, reply) => { console.log(`${id(request)} child errorHandler ${error.message}`); reply.code(422).send({}); });
  child.post("/child/:key", async (request) => {
    if (id(request) === 0) throw new Error("child error");
    return { child: true };
  });
}, { prefix: "/v1" });
fastify.listen({ port: 3000 });
