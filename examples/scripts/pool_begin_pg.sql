CREATE TABLE orders (id int PRIMARY KEY);
