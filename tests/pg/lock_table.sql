-- A table to lock, with one row (tests/pg/lock_table*.js).
CREATE TABLE bookings (id serial PRIMARY KEY, room int NOT NULL, night int NOT NULL);
INSERT INTO bookings (room, night) VALUES (1, 1);
