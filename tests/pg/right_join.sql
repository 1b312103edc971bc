CREATE TABLE users (id int PRIMARY KEY, name text NOT NULL);
CREATE TABLE orders (id serial PRIMARY KEY, user_id int, total int NOT NULL);
CREATE TABLE notes (id int PRIMARY KEY, order_id int, body text);
INSERT INTO users VALUES (1, 'ann'), (2, 'bob'), (3, 'cy');
INSERT INTO orders (user_id, total) VALUES (1, 10), (4, 30), (2, 5), (NULL, 7), (1, 8);
INSERT INTO notes VALUES (1, 1, 'gift'), (2, 9, 'lost'), (3, 3, 'rush');
