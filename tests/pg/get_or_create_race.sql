CREATE TABLE users (id serial PRIMARY KEY, email text UNIQUE NOT NULL);
