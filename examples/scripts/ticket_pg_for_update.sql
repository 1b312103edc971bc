-- Users (the rows the handler locks) and their tickets. No UNIQUE
-- constraint: the row lock alone keeps one ticket per user.
CREATE TABLE users (
  id integer PRIMARY KEY,
  name text NOT NULL
);
INSERT INTO users (id, name) VALUES
  (0, 'ada'), (1, 'bo'), (2, 'cy'), (3, 'di'), (4, 'ed'),
  (5, 'flo'), (6, 'gus'), (7, 'hal'), (8, 'ivy'), (9, 'jo');
CREATE TABLE orders (
  id serial PRIMARY KEY,
  user_id integer NOT NULL REFERENCES users (id),
  event_id integer NOT NULL
);
-- expect unique: orders (user_id, event_id)
