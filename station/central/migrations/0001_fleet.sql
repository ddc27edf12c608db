-- 0001_fleet: the central store of every station's journal.
-- Never edit a shipped migration: add the next number.

-- One row per station: its chain head as stored here, and what the floor's map shows.
CREATE TABLE stations (
    station_id      text PRIMARY KEY,
    site            text NOT NULL,
    head_seq        bigint NOT NULL DEFAULT 0,
    head_hash       text NOT NULL,
    head_utc        text,                 -- recorded_utc of the head row (the station's clock)
    hand            bigint NOT NULL DEFAULT 0,   -- hand number of the head row
    setup           jsonb,                -- payload of the last input.setup row: game, stakes, seats
    floor_call_seq  bigint,               -- the open CALL FLOOR's row; NULL when none is open
    first_seen      timestamptz NOT NULL DEFAULT now(),
    last_row_at     timestamptz,          -- when the ingest last stored a row of this station
    online          boolean,              -- from the retained status / Last Will
    status          jsonb,                -- the station's last status message (outbox figures)
    status_at       timestamptz,
    hello_seq       bigint,               -- the head the station announced at its last connect
    hello_at        timestamptz
);

-- Every journal row, exactly as the station chained it (the text columns are what the hash
-- covers), keyed by (station, seq): a row arriving twice is stored once.
CREATE TABLE rows (
    station_id      text NOT NULL REFERENCES stations (station_id),
    seq             bigint NOT NULL CHECK (seq >= 1),
    boot_id         text NOT NULL,
    recorded_utc    text NOT NULL,
    recorded_at_ns  bigint NOT NULL,
    clock_ok        boolean NOT NULL,
    hand            bigint NOT NULL,
    code            text NOT NULL,
    actor           text NOT NULL,
    role            text NOT NULL,
    ref             bigint,
    payload         text NOT NULL,        -- canonical JSON text (cast to jsonb to query it)
    prev_hash       text NOT NULL,
    hash            text NOT NULL,
    recorded        timestamptz NOT NULL, -- recorded_utc as a time, for ranges
    stored_at       timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (station_id, seq)
);
-- A hand's rows (recall): one index range.
CREATE INDEX rows_hand ON rows (station_id, hand, seq);
-- The rows the incident fold reads (station.journal.incidents.FOLD_CODES plus floor calls,
-- tilts): small partial indexes, by station and across stations by time.
CREATE INDEX rows_incident ON rows (station_id, seq) WHERE code IN (
    'decision.incident', 'floor.call_raised', 'floor.call_cleared', 'input.key',
    'table.hand_start', 'auth.login', 'auth.logout', 'incident.ruled', 'incident.reviewed',
    'incident.closed', 'tilt.raised', 'tilt.cleared');
CREATE INDEX rows_incident_time ON rows (recorded) WHERE code IN (
    'decision.incident', 'floor.call_raised', 'incident.ruled', 'incident.reviewed',
    'incident.closed');
-- Time ranges over everything: a BRIN index costs almost nothing on an append-mostly table.
CREATE INDEX rows_recorded ON rows USING brin (recorded);

-- Stored rows are evidence: never changed, never deleted.
CREATE FUNCTION rows_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    RAISE EXCEPTION 'central journal rows are append-only';
END $$;
CREATE TRIGGER rows_no_update BEFORE UPDATE OR DELETE ON rows
    FOR EACH ROW EXECUTE FUNCTION rows_append_only();

-- What the centre found wrong with a station's chain; open until someone clears it.
CREATE TABLE alarms (
    id          bigserial PRIMARY KEY,
    station_id  text NOT NULL,
    kind        text NOT NULL CHECK (kind IN ('fork', 'rollback', 'chain_break')),
    seq         bigint,
    detail      jsonb NOT NULL,
    raised_at   timestamptz NOT NULL DEFAULT now(),
    cleared_at  timestamptz,
    cleared_by  text,
    note        text
);
CREATE UNIQUE INDEX alarms_open ON alarms (station_id, kind, COALESCE(seq, -1))
    WHERE cleared_at IS NULL;

-- Rows a station offered that conflict with the stored chain (the other history), kept as
-- evidence, once each.
CREATE TABLE conflict_rows (
    station_id  text NOT NULL,
    seq         bigint NOT NULL,
    hash        text NOT NULL,
    row         jsonb NOT NULL,
    received_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (station_id, seq, hash)
);

-- Commands to stations (the floor console's rulings, issue 21): queued here, published by the
-- ingest while the station is connected, until the station's reply.
CREATE TABLE commands (
    id          bigserial PRIMARY KEY,
    station_id  text NOT NULL,
    kind        text NOT NULL,
    body        jsonb NOT NULL DEFAULT '{}',
    created_by  text NOT NULL,
    created_at  timestamptz NOT NULL DEFAULT now(),
    state       text NOT NULL DEFAULT 'pending'
                CHECK (state IN ('pending', 'done', 'refused', 'unsupported')),
    sent_at     timestamptz,
    tries       integer NOT NULL DEFAULT 0,
    replied_at  timestamptz,
    reply       jsonb
);
CREATE INDEX commands_pending ON commands (station_id, id) WHERE state = 'pending';

-- The ingest's running totals, updated in the same transaction as the rows they count.
CREATE TABLE ingest_counters (
    name   text PRIMARY KEY,
    value  bigint NOT NULL
);
INSERT INTO ingest_counters (name, value) VALUES
    ('rows_stored', 0), ('duplicates', 0), ('gaps', 0), ('forks', 0), ('chain_breaks', 0),
    ('rollbacks', 0), ('batches', 0);
