-- One ticket per user and event, enforced by PostgreSQL.
CREATE TABLE orders (
  id serial PRIMARY KEY,
  user_id integer NOT NULL,
  event_id integer NOT NULL,
  CONSTRAINT orders_user_event_key UNIQUE (user_id, event_id)
);
-- expect unique: orders (user_id, event_id)
