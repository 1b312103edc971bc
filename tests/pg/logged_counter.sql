CREATE TABLE counters (id int PRIMARY KEY, n int NOT NULL);
INSERT INTO counters VALUES (1, 0);
CREATE TABLE visits (id serial PRIMARY KEY, user_id int);
