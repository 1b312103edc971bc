// An Express route that checks, then inserts, and lets PostgreSQL have the
// last word: the check-then-insert race is still there, but the UNIQUE
// constraint refuses the second row, and the route turns that error
// (SQLSTATE 23505, unique_violation) into a 409.
//
// See it: `users=1&clicks=2` gives orders 1, duplicate_tickets 0, errors 0,
// `status_201` 1 and `status_409` 1 (both clicks pass the SELECT; the
// second INSERT fails). Drop the UNIQUE line from the schema and both get a
// 201: orders 2, duplicate_tickets 1.
const express = require("express");
const { Pool } = require("pg");

const app = express();
app.use(express.json());
const pool = new Pool();

app.post("/events/:eventId/tickets", async (req, res) => {
  const eventId = 1;
  const userId = req.body.user;
  const existing = await pool.query(
    "SELECT id FROM orders WHERE user_id = $1 AND event_id = $2",
    [userId, eventId]
  );
  if (existing.rowCount > 0) {
    return res.status(409).json({ error: "ticket already issued" });
  }
  try {
    const { rows } = await pool.query(
      "INSERT INTO orders (user_id, event_id) VALUES ($1, $2) RETURNING id",
      [userId, eventId]
    );
    res.status(201).json(rows[0]);
  } catch (err) {
    if (err.code === "23505") {
      return res.status(409).json({ error: "ticket already issued" });
    }
    throw err;
  }
});

app.listen(process.env.PORT ?? 3000, () => console.log("listening"));
