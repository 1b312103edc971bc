-- One ticket per user and event, enforced by PostgreSQL.
CREATE TABLE orders (
  id serial PRIMARY KEY,
  user_id integer NOT NULL,
  event_id integer NOT NULL,
  UNIQUE (user_id, event_id)
);
-- expect unique: orders (user_id, event_id)
