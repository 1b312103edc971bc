CREATE TABLE items (id int PRIMARY KEY, qty int NOT NULL);
INSERT INTO items VALUES (1, 10), (2, 20), (3, 30), (4, 40);
