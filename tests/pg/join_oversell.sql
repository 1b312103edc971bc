CREATE TABLE events (id integer PRIMARY KEY, capacity integer NOT NULL);
CREATE TABLE orders (id serial PRIMARY KEY, user_id integer NOT NULL, event_id integer NOT NULL);
INSERT INTO events (id, capacity) VALUES (1, 1);
