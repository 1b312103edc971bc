CREATE TABLE users (id int PRIMARY KEY, name text NOT NULL);
CREATE TABLE orders (id serial PRIMARY KEY, user_id int NOT NULL, total int NOT NULL);
INSERT INTO users VALUES (1, 'ann'), (2, 'bob'), (3, 'cy');
INSERT INTO orders (user_id, total) VALUES (1, 10), (1, 30), (2, 5), (3, 7), (3, 8), (3, 1);
