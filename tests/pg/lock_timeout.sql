CREATE TABLE events (id int PRIMARY KEY, seats int NOT NULL);
INSERT INTO events VALUES (1, 5);
