-- 0005_tournaments: tournament events across tables (issue 30): the event, its structure and
-- entrants, the seat draws with their seeds, the tables in play, the moves the floor ordered and
-- the stations confirmed, the players out and their places, the event's clock and
-- hand-for-hand. Never edit a shipped migration: add the next number.

CREATE TABLE tourney_events (
    id              text PRIMARY KEY,             -- the event's name at the tables ('E1')
    title           text NOT NULL,
    profile         text NOT NULL,                -- RR11, RRPG, RR5, USPA, GN or TDA
    game            text NOT NULL,
    structure       jsonb NOT NULL,               -- {"levels": [...]}, as the stations read it
    start_chips     bigint NOT NULL CHECK (start_chips > 0),
    prizes          jsonb NOT NULL DEFAULT '[]',  -- amounts by place, 1st first
    redraw_at_three boolean NOT NULL DEFAULT true,
    seed            text,                         -- the seat draw's seed, recorded when drawn
    state           text NOT NULL DEFAULT 'planned'
                    CHECK (state IN ('planned', 'seated', 'finished')),
    clock           jsonb,                        -- {at_utc, index, remaining_s, paused}; NULL: not started
    clock_sent      integer,                      -- the level (index) last announced to the tables
    h4h_on          boolean NOT NULL DEFAULT false,
    h4h_round       integer NOT NULL DEFAULT 0,   -- the round waiting for its release, or in play
    h4h_released    boolean NOT NULL DEFAULT false,
    winner          text,
    created_by      text NOT NULL,
    created_at      timestamptz NOT NULL DEFAULT now(),
    finished_at     timestamptz
);

CREATE TABLE tourney_entrants (
    event_id    text NOT NULL REFERENCES tourney_events (id),
    player      text NOT NULL,                    -- the id the tables journal ('P017')
    name        text NOT NULL,
    PRIMARY KEY (event_id, player)
);

-- The event's tables, in the preset breaking order (break_order 1 is broken first); each one's
-- rows folded by the director (`fold`, up to `seq`).
CREATE TABLE tourney_tables (
    event_id    text NOT NULL REFERENCES tourney_events (id),
    station_id  text NOT NULL,
    seats       integer[] NOT NULL,
    break_order integer NOT NULL,
    broken_at   timestamptz,
    fold        jsonb NOT NULL DEFAULT '{}',
    seq         bigint NOT NULL DEFAULT 0,
    PRIMARY KEY (event_id, station_id)
);
CREATE INDEX tourney_tables_station ON tourney_tables (station_id) WHERE broken_at IS NULL;

-- Where each player still in is, or is going (a player ordered to move counts at his new seat).
CREATE TABLE tourney_seats (
    event_id    text NOT NULL REFERENCES tourney_events (id),
    player      text NOT NULL,
    station_id  text NOT NULL,
    seat        integer NOT NULL,
    chips       bigint NOT NULL,
    moving      boolean NOT NULL DEFAULT false,
    PRIMARY KEY (event_id, player),
    UNIQUE (event_id, station_id, seat) DEFERRABLE INITIALLY DEFERRED  -- a redraw swaps seats
);

-- Every draw: the first seat draw, each table broken into the open seats, each redraw, with
-- the seed it drew with (the same seed gives the same seats) and what it gave.
CREATE TABLE tourney_draws (
    event_id    text NOT NULL REFERENCES tourney_events (id),
    n           integer NOT NULL,
    kind        text NOT NULL CHECK (kind IN ('draw', 'break', 'redraw')),
    seed        text NOT NULL,
    broken      text,
    tables_left integer NOT NULL,
    rule        text NOT NULL DEFAULT '',
    why         text NOT NULL DEFAULT '',
    result      jsonb NOT NULL,                   -- {player: [table, seat]}
    at          timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (event_id, n)
);

-- Moves: decided by the rule, carried out at both tables (the seat sensors confirm). A move of
-- a player already on his way waits for that one (`after_move`) before it goes to the table.
CREATE TABLE tourney_moves (
    id           bigserial PRIMARY KEY,
    event_id     text NOT NULL REFERENCES tourney_events (id),
    player       text NOT NULL,
    from_station text NOT NULL,
    from_seat    integer NOT NULL,
    to_station   text NOT NULL,
    to_seat      integer NOT NULL,
    reason       text NOT NULL CHECK (reason IN ('balance', 'break', 'redraw')),
    rule         text NOT NULL,
    why          text NOT NULL,
    draw_n       integer,
    cause_seq    bigint,                          -- the row that made it necessary (a player out)
    cause_station text,
    decision     jsonb NOT NULL DEFAULT '{}',     -- the tables as the rule saw them (a check's input)
    after_move   bigint,
    state        text NOT NULL DEFAULT 'ordered'
                 CHECK (state IN ('waiting', 'ordered', 'out', 'done', 'cancelled')),
    chips        bigint,
    decided_at   timestamptz NOT NULL DEFAULT now(),
    out_command  bigint,
    out_seq      bigint,
    out_at       timestamptz,
    in_command   bigint,
    in_seq       bigint,
    in_at        timestamptz
);
CREATE INDEX tourney_moves_open ON tourney_moves (event_id, player)
    WHERE state IN ('waiting', 'ordered', 'out');

-- Players out, as their table journaled it, and their place (recomputed as the field shrinks:
-- a hand-for-hand round's places are final once the round is over).
CREATE TABLE tourney_outs (
    event_id    text NOT NULL REFERENCES tourney_events (id),
    player      text NOT NULL,
    station_id  text NOT NULL,
    seat        integer NOT NULL,
    hand        bigint NOT NULL,
    start_stack bigint NOT NULL,
    round       integer,                          -- the hand-for-hand round, if any
    grp         text NOT NULL,                    -- players out together (one hand, or one round)
    ord         bigint NOT NULL,                  -- when (the station's time, microseconds)
    row_seq     bigint NOT NULL,                  -- the station's tournament.eliminated row
    recorded    text NOT NULL,
    place       integer,
    place_last  integer,
    stored_at   timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (event_id, player)
);

CREATE TABLE tourney_rounds (
    event_id    text NOT NULL REFERENCES tourney_events (id),
    round       integer NOT NULL,
    released_at timestamptz,
    complete_at timestamptz,
    PRIMARY KEY (event_id, round)
);
