// A Redis lock around the ticket check, in TypeScript (ioredis): `SET key
// token NX PX ttl` takes the lock only if nobody holds it, with an owner
// token (crypto.randomUUID()) and an expiry in case the holder dies. The
// release is the check-and-delete script: delete the key only if it still
// holds *our* token. A plain `DEL` would free a lock that expired under
// us and that another request has taken since.
//
// See it: `users=1&clicks=2` gives orders 1, duplicate_tickets 0: the
// second click finds the lock taken (`busy` 1; a real API would answer
// 409 or retry). Without "NX" both clicks take the "lock": orders 2,
// duplicate_tickets 1. Across servers (`servers=2`) it still holds: the
// lock lives in Redis, not in the process.
import Redis from "ioredis";
import { Pool } from "pg";
import { randomUUID } from "crypto";

interface Ticket {
  id: number;
}

const redis = new Redis(process.env.REDIS_URL ?? "redis://localhost:6379");
const pool = new Pool();
const LOCK_TTL_MS = 5_000;
const EVENT_ID = 1;

const RELEASE = `
if redis.call("get", KEYS[1]) == ARGV[1] then
  return redis.call("del", KEYS[1])
else
  return 0
end`;

async function withLock<T>(key: string, work: () => Promise<T>): Promise<T | null> {
  const token: string = randomUUID();
  const taken = await redis.set(key, token, "PX", LOCK_TTL_MS, "NX");
  if (taken !== "OK") return null;
  try {
    return await work();
  } finally {
    await redis.eval(RELEASE, 1, key, token);
  }
}

async function claimTicket(userId: number): Promise<Ticket | undefined> {
  const { rows } = await pool.query<Ticket>(
    "SELECT id FROM orders WHERE user_id = $1 AND event_id = $2",
    [userId, EVENT_ID]
  );
  if (rows.length > 0) return rows[0];
  const inserted = await pool.query<Ticket>(
    "INSERT INTO orders (user_id, event_id) VALUES ($1, $2) RETURNING id",
    [userId, EVENT_ID]
  );
  count("issued");
  return inserted.rows[0];
}

export async function handle(req: { user: number }): Promise<void> {
  const ticket = await withLock(`lock:ticket:${req.user}`, () => claimTicket(req.user));
  if (ticket === null) count("busy");
}
