-- Three new jobs, and a row per run of one. A job should run once.
CREATE TABLE jobs (
  id serial PRIMARY KEY,
  state text NOT NULL DEFAULT 'new',
  payload text NOT NULL
);
INSERT INTO jobs (payload) VALUES ('resize a.png'), ('resize b.png'), ('send digest');
CREATE TABLE runs (
  id serial PRIMARY KEY,
  job_id integer NOT NULL REFERENCES jobs (id)
);
-- expect unique: runs (job_id)
