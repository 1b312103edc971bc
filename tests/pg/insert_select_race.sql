CREATE TABLE orders (id serial PRIMARY KEY, user_id int NOT NULL, event_id int NOT NULL);
CREATE UNIQUE INDEX orders_once ON orders (user_id, event_id);
