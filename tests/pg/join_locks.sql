CREATE TABLE users (id int PRIMARY KEY, email text UNIQUE NOT NULL);
CREATE TABLE orders (id int PRIMARY KEY, user_id int NOT NULL, total int NOT NULL);
INSERT INTO users VALUES (1, 'a@x'), (2, 'b@x'), (3, 'c@x');
INSERT INTO orders VALUES (1, 1, 10), (2, 1, 20), (3, 2, 30), (4, 1, 40);
