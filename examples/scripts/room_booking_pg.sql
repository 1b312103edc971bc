-- Room 101 is free; room 102 is booked for nights 10 and 11. A stay is
-- its first and last night.
CREATE TABLE bookings (
  id serial PRIMARY KEY,
  room integer NOT NULL,
  guest integer NOT NULL,
  first_night integer NOT NULL,
  last_night integer NOT NULL
);
INSERT INTO bookings (room, guest, first_night, last_night) VALUES (102, 99, 10, 11);
-- Room 101 should get one booking for these overlapping stays.
-- expect unique: bookings (room)
