-- 0004_health: the central services say they are alive, so the floor console can tell the
-- floor the truth during an outage (issue 31). Never edit a shipped migration: add the next
-- number.

-- One row per central service (the ingest): written every second while it runs, at once when
-- its broker connection changes, and marked stopped when it stops cleanly. A row whose beat is
-- old is a service that died (kill -9, crash, host down).
CREATE TABLE central_health (
    service           text PRIMARY KEY,           -- 'ingest'
    host              text NOT NULL,
    pid               integer NOT NULL,
    started_at        timestamptz NOT NULL,
    beat_at           timestamptz NOT NULL,       -- the last heartbeat (the database's clock)
    stopped           boolean NOT NULL DEFAULT false,
    broker_connected  boolean NOT NULL,
    broker_since      timestamptz NOT NULL,       -- when broker_connected last changed
    broker_detail     text NOT NULL DEFAULT ''    -- why it is not connected
);

-- The money view (rake and time by table, day, shift, dealer): the rows it folds
-- (station.recall.rake_report.CODES), per station in journal order.
CREATE INDEX rows_rake ON rows (station_id, seq) WHERE code IN (
    'decision.hand_end', 'decision.incident', 'auth.login', 'auth.logout', 'people.disabled');
