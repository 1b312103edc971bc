CREATE TABLE users (id int PRIMARY KEY, name text NOT NULL, tier text);
CREATE TABLE orders (id serial PRIMARY KEY, user_id int NOT NULL, total numeric(10,2) NOT NULL);
INSERT INTO users (id, name, tier) VALUES (1, 'ann', 'gold'), (2, 'bob', NULL), (3, 'cy', 'gold');
INSERT INTO orders (user_id, total) VALUES (1, 10), (1, 5.5), (3, 7);
