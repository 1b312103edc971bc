CREATE TABLE users (id int PRIMARY KEY, name text NOT NULL);
CREATE TABLE redemptions (id serial PRIMARY KEY, user_id int NOT NULL, coupon text NOT NULL);
INSERT INTO users (id, name) VALUES (0, 'ann'), (1, 'bob'), (2, 'cy'), (3, 'dee');
-- expect unique: redemptions (user_id, coupon)
