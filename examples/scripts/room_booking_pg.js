// Booking a hotel room for some nights on PostgreSQL. The handler checks
// that no booking of the room overlaps the stay, then inserts its own. No
// unique index can say "no two stays of a room overlap", so the check is
// the only guard, and two guests who book together both pass it: the room
// is booked twice. Locking the table first is a fix:
// `LOCK TABLE bookings IN SHARE ROW EXCLUSIVE MODE` right after BEGIN makes
// the second guest's transaction wait at its LOCK until the first commits;
// its check then sees the first booking. (SHARE ROW EXCLUSIVE excludes
// itself and every writer, and lets plain reads through.)
//
// See it: `users=2&clicks=1` gives duplicate_tickets 1 (room 101 booked
// twice for overlapping nights); with the LOCK TABLE line, one guest gets
// the room and the other is told it is taken.
const { Pool } = require("pg");

const pool = new Pool();

module.exports = {
  async handle(req) {
    const room = 101;
    // Each guest wants two nights; guest 1 arrives a night later, so
    // their stays overlap.
    const from = 10 + (req.user % 2);
    const to = from + 2;
    const client = await pool.connect();
    try {
      await client.query("BEGIN");
      const { rows } = await client.query(
        `SELECT count(*)::int AS n FROM bookings
         WHERE room = $1 AND first_night < $3 AND last_night >= $2`,
        [room, from, to]
      );
      if (rows[0].n > 0) {
        await client.query("ROLLBACK");
        count("taken");
        return { status: 409, body: "the room is taken for those nights" };
      }
      await client.query(
        "INSERT INTO bookings (room, guest, first_night, last_night) VALUES ($1, $2, $3, $4)",
        [room, req.user, from, to - 1]
      );
      await client.query("COMMIT");
      count("booked");
      return { status: 201 };
    } catch (err) {
      await client.query("ROLLBACK");
      throw err;
    } finally {
      client.release();
    }
  },
};
