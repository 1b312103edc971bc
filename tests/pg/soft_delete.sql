CREATE TABLE accounts (
  id serial PRIMARY KEY,
  email text NOT NULL,
  name text,
  deleted_at timestamptz
);
CREATE UNIQUE INDEX accounts_email_live ON accounts (email) WHERE deleted_at IS NULL;
