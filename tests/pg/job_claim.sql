CREATE TABLE jobs (id serial PRIMARY KEY, state text NOT NULL);
CREATE TABLE runs (id serial PRIMARY KEY, job_id integer NOT NULL);
-- expect unique: runs (job_id)
INSERT INTO jobs (state) VALUES ('new'), ('new'), ('new');
