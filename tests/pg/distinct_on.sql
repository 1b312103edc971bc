CREATE TABLE readings (id serial PRIMARY KEY, sensor text, taken int NOT NULL, value int);
INSERT INTO readings (sensor, taken, value) VALUES ('b', 1, 10), ('a', 2, 20), ('b', 3, NULL), ('a', 1, 5), ('c', 2, 7), (NULL, 1, 1), (NULL, 2, 2);
