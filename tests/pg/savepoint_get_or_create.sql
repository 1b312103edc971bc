-- One account per email: the unique key is what makes a second sign-up's
-- INSERT wait, then do nothing.
CREATE TABLE users (
  id serial PRIMARY KEY,
  email text NOT NULL UNIQUE
);
CREATE TABLE sessions (
  id serial PRIMARY KEY,
  user_id integer NOT NULL REFERENCES users (id)
);
