-- 0006_move_cancel: a balancing move the director ordered and no longer needs is called off
-- (issue 30). The director re-plans when a later fact (a player out at another table, a
-- refusal) changes the counts; a move not yet carried out that the new plan does not make is
-- cancelled: at once while it only waits, else by a `tournament.move_cancel` to its table,
-- which honours it until the player has left his seat. Never edit a shipped migration: add
-- the next number.

ALTER TABLE tourney_moves
    ADD COLUMN cancel_why     text,           -- why it was called off, in words
    ADD COLUMN cancel_command bigint,         -- the move_cancel sent to the table
    ADD COLUMN cancel_state   text            -- sent; done (cancelled); refused (the move stands)
        CHECK (cancel_state IN ('sent', 'done', 'refused')),
    ADD COLUMN cancel_detail  text,           -- the table's reason for refusing it
    ADD COLUMN cancel_seq     bigint,         -- the table's tournament.move_cancelled row
    ADD COLUMN cancel_cause_station text,     -- the row that made it unneeded (a player out),
    ADD COLUMN cancel_cause_seq     bigint;   -- the cause of the move decided in its place
