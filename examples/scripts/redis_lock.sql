-- The tickets, with no UNIQUE constraint: the Redis lock keeps them apart.
CREATE TABLE orders (
  id serial PRIMARY KEY,
  user_id integer NOT NULL,
  event_id integer NOT NULL
);
-- What the code means to keep true (counted, not enforced):
-- expect unique: orders (user_id, event_id)
