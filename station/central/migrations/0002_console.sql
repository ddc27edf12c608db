-- 0002_console: the floor console (station central console): its accounts, sessions and audit
-- log, and what it folds out of the stored rows (incidents, each table's operational state).
-- Never edit a shipped migration: add the next number.

-- People who sign in to the console. Site-wide: a name here is the person's name at the tables
-- (the same floor supervisor signs in at a table with a PIN and here with a password), so the
-- station's separation of duties compares the same names.
CREATE TABLE console_accounts (
    name            text PRIMARY KEY,
    role            text NOT NULL CHECK (role IN ('floor', 'tech', 'admin', 'auditor', 'dealer')),
    password        text NOT NULL,        -- scrypt$n$r$p$salt$hash (station.central.console.passwords)
    active          boolean NOT NULL DEFAULT true,
    failures        integer NOT NULL DEFAULT 0,   -- wrong passwords in a row
    locked_until    timestamptz,          -- set by the lockout; NULL: not locked
    created_at      timestamptz NOT NULL DEFAULT now(),
    created_by      text NOT NULL,
    changed_at      timestamptz NOT NULL DEFAULT now()
);

-- Signed-in browsers. The cookie holds a random token; only its SHA-256 is stored.
CREATE TABLE console_sessions (
    token_hash      text PRIMARY KEY,
    account         text NOT NULL REFERENCES console_accounts (name),
    csrf            text NOT NULL,        -- the synchronizer token every form must carry
    created_at      timestamptz NOT NULL DEFAULT now(),
    last_seen       timestamptz NOT NULL DEFAULT now(),
    expires_at      timestamptz NOT NULL, -- absolute expiry
    ended_at        timestamptz,          -- signed out, or ended by an admin
    address         text NOT NULL DEFAULT ''
);
CREATE INDEX console_sessions_account ON console_sessions (account);

-- Everything done on the console that matters to an auditor: sign-ins (and failures, lockouts),
-- rulings sent, hole cards revealed, exports, account changes. Append-only like the rows.
CREATE TABLE console_audit (
    id              bigserial PRIMARY KEY,
    at              timestamptz NOT NULL DEFAULT now(),
    account         text NOT NULL,        -- the account name given ('?' when none)
    role            text NOT NULL DEFAULT '',
    action          text NOT NULL,
    station_id      text,
    target          text NOT NULL DEFAULT '',
    detail          jsonb NOT NULL DEFAULT '{}',
    address         text NOT NULL DEFAULT ''
);
CREATE INDEX console_audit_at ON console_audit (at);
CREATE FUNCTION console_audit_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    RAISE EXCEPTION 'the console audit log is append-only';
END $$;
CREATE TRIGGER console_audit_no_update BEFORE UPDATE OR DELETE ON console_audit
    FOR EACH ROW EXECUTE FUNCTION console_audit_append_only();

-- Incidents as the station's own fold (station.journal.incidents) sees them, one row each,
-- kept up to date by the console's indexer from the stored rows; `record` is the whole
-- IncidentRecord, the columns are what the queue filters and sorts on.
CREATE TABLE console_incidents (
    station_id      text NOT NULL,
    id              bigint NOT NULL,      -- the seq of the row that opened it (the station's id)
    hand            bigint NOT NULL,
    rule            text NOT NULL,
    source          text NOT NULL,
    engine_ruling   text NOT NULL,
    ruling          text,                 -- the ruling in force
    state           text NOT NULL,
    severity        smallint NOT NULL,    -- 3 stops the game, 2 corrects it, 1 notes it
    detected        timestamptz,
    people          text[] NOT NULL DEFAULT '{}',  -- the dealer and everyone who acted on it
    record          jsonb NOT NULL,
    updated_at      timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (station_id, id)
);
CREATE INDEX console_incidents_detected ON console_incidents (detected DESC);
CREATE INDEX console_incidents_open ON console_incidents (severity DESC, detected)
    WHERE state <> 'closed';
CREATE INDEX console_incidents_rule ON console_incidents (rule);
CREATE INDEX console_incidents_people ON console_incidents USING gin (people);

-- Where a hand's recall starts from: the last setup and hand end before it (the same look-up
-- as station.journal.hands.load_hand), and the list of finished hands.
CREATE INDEX rows_setup_end ON rows (station_id, seq)
    WHERE code IN ('input.setup', 'decision.hand_end');

-- The indexer's place in each station's rows and the state of its folds there.
CREATE TABLE console_fold (
    station_id      text PRIMARY KEY,
    seq             bigint NOT NULL DEFAULT 0,
    state           jsonb NOT NULL DEFAULT '{}',   -- fold context: dealer, hand starts, live incidents
    ops             jsonb NOT NULL DEFAULT '{}',   -- the table's open tilts, links, sessions
    updated_at      timestamptz NOT NULL DEFAULT now()
);

-- Who asked for a command on the console (the account, kept apart from the body the station
-- gets), and a word to the console when a command is queued or answered.
ALTER TABLE commands ADD COLUMN incident bigint;
CREATE INDEX commands_incident ON commands (station_id, incident) WHERE incident IS NOT NULL;
CREATE FUNCTION commands_notify() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM pg_notify('fleet_commands', json_build_object(
        'station', NEW.station_id, 'id', NEW.id, 'state', NEW.state)::text);
    RETURN NEW;
END $$;
CREATE TRIGGER commands_notify AFTER INSERT OR UPDATE OF state ON commands
    FOR EACH ROW EXECUTE FUNCTION commands_notify();
