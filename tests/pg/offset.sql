-- Five items, two named b (tests/pg/offset.js).
CREATE TABLE items (id serial PRIMARY KEY, name text NOT NULL, price int);
INSERT INTO items (name, price) VALUES ('a', 3), ('b', 1), ('c', 2), ('d', NULL), ('b', 5);
