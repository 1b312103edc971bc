-- The product every request reads.
CREATE TABLE products (
  id integer PRIMARY KEY,
  name text NOT NULL,
  price numeric NOT NULL
);
INSERT INTO products (id, name, price) VALUES (1, 'concert ticket', 49.90);
