-- Messages Kamen posts exactly once (a round's pairings, a season's final tables): the
-- intent is written before the message is posted (`after`: a message id no older than
-- the attempt, to look for it from after a kill), and the message's id once it is.
CREATE TABLE postings (
    key        TEXT   PRIMARY KEY,
    after      BIGINT NOT NULL,
    message_id BIGINT
);
