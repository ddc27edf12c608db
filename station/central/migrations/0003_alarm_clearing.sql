-- 0003_alarm_clearing: clearing a chain alarm without SQL (the floor console's alarm page and
-- `station central alarms clear`): who cleared it, in which console role, when and why; an
-- alarm, open or cleared, stays in the table as history.
-- Never edit a shipped migration: add the next number.

-- `cleared_by` is the console account, `cleared_role` its role then, `note` the reason given
-- (required: a cleared alarm without a reason is refused from now on; rows cleared by hand
-- before this migration are left as they were, hence NOT VALID).
ALTER TABLE alarms ADD COLUMN cleared_role text;
ALTER TABLE alarms ADD CONSTRAINT alarms_cleared_with_reason CHECK (
    cleared_at IS NULL
    OR (cleared_by IS NOT NULL AND length(btrim(coalesce(note, ''))) > 0)
) NOT VALID;

-- An alarm is evidence: never deleted; what it found never changed; once cleared, it stays
-- as it was cleared (clearing is the one change, made once).
CREATE FUNCTION alarms_kept() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'DELETE' THEN
        RAISE EXCEPTION 'alarms are kept: clear an alarm, never delete it';
    END IF;
    IF OLD.cleared_at IS NOT NULL THEN
        RAISE EXCEPTION 'alarm % was cleared: it stays as it was cleared', OLD.id;
    END IF;
    IF (NEW.id, NEW.station_id, NEW.kind, NEW.seq, NEW.detail, NEW.raised_at)
        IS DISTINCT FROM (OLD.id, OLD.station_id, OLD.kind, OLD.seq, OLD.detail, OLD.raised_at)
    THEN
        RAISE EXCEPTION 'what alarm % found is never changed', OLD.id;
    END IF;
    RETURN NEW;
END $$;
CREATE TRIGGER alarms_kept BEFORE UPDATE OR DELETE ON alarms
    FOR EACH ROW EXECUTE FUNCTION alarms_kept();

-- A table's alarms, newest first (the alarm page and `station central alarms list`).
CREATE INDEX alarms_station ON alarms (station_id, id);
