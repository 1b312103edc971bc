CREATE TABLE stock (id integer PRIMARY KEY, qty integer NOT NULL);
INSERT INTO stock VALUES (1, 5);
