-- The negotiations table (docs/protocols/record-and-schema.md) in SQLite: UUIDs as
-- their lower-case text, JSONB as JSON text (the store writes it; not re-parsed by a
-- CHECK on every write), TIMESTAMPTZ as ISO 8601 UTC text with milliseconds (which
-- sorts in time order), NUMERIC(3,2) as a number checked to 0..1 with two decimals. The
-- table's `state IN (...)` and `state NOT IN (...)` are written out as comparisons:
-- SQLite 3.40 builds a temporary table for a list of three or more values on every row
-- a statement writes (two per inserted row here, 28 % of the writer's instructions in
-- W1 with `--store`). The same predicates; a query must spell the open states the same
-- way as the expiry index does for SQLite to use that index (actors/store/query.cpp).
CREATE TABLE negotiations (
  -- gen_random_uuid(): a version 4 UUID from SQLite's random source.
  id TEXT PRIMARY KEY NOT NULL DEFAULT (lower(
    hex(randomblob(4)) || '-' || hex(randomblob(2)) || '-4' ||
    substr(hex(randomblob(2)), 2) || '-' ||
    substr('89ab', 1 + (abs(random()) % 4), 1) || substr(hex(randomblob(2)), 2) || '-' ||
    hex(randomblob(6))))
    -- A UUID in its canonical lower-case form: 8-4-4-4-12 hex digits. One
    -- GLOB without a star reads the text once (measured: half the cost of a
    -- star pattern with length() and four substr() calls).
    CONSTRAINT negotiations_id_check CHECK (id GLOB
    '[0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f]-[0-9a-f][0-9a-f][0-9a-f][0-9a-f]-[0-9a-f][0-9a-f][0-9a-f][0-9a-f]-[0-9a-f][0-9a-f][0-9a-f][0-9a-f]-[0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f]'),
  intent_id TEXT NOT NULL CONSTRAINT negotiations_intent_id_check CHECK (intent_id GLOB
    '[0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f]-[0-9a-f][0-9a-f][0-9a-f][0-9a-f]-[0-9a-f][0-9a-f][0-9a-f][0-9a-f]-[0-9a-f][0-9a-f][0-9a-f][0-9a-f]-[0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f]'),
  initiator_did TEXT NOT NULL,
  responder_did TEXT NOT NULL,
  state TEXT NOT NULL CONSTRAINT negotiations_state_check CHECK (
    state = 'initiated' OR state = 'proposed' OR state = 'counter_proposed'
    OR state = 'accepted' OR state = 'rejected' OR state = 'expired'),
  rounds TEXT NOT NULL DEFAULT '[]',
  convergence_score NUMERIC CONSTRAINT negotiations_convergence_score_check CHECK (
    convergence_score >= 0.0 AND convergence_score <= 1.0
    AND round(convergence_score, 2) = convergence_score),
  current_proposal TEXT,
  final_proposal TEXT,
  incentive_split TEXT DEFAULT '{"agent": 0.70, "broker": 0.10, "validator": 0.10, "pool": 0.10}',
  max_rounds INTEGER DEFAULT 10 CONSTRAINT negotiations_max_rounds_check CHECK (
    max_rounds >= 1 AND max_rounds <= 20),
  created_at TEXT DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
  expires_at TEXT NOT NULL,
  updated_at TEXT DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);

CREATE INDEX idx_negotiations_intent ON negotiations (intent_id);
CREATE INDEX idx_negotiations_initiator ON negotiations (initiator_did, created_at DESC);
CREATE INDEX idx_negotiations_responder ON negotiations (responder_did, created_at DESC);
CREATE INDEX idx_negotiations_state ON negotiations (state, created_at DESC);
CREATE INDEX idx_negotiations_expires ON negotiations (expires_at)
  WHERE state <> 'accepted' AND state <> 'rejected' AND state <> 'expired';
CREATE INDEX idx_negotiations_convergence ON negotiations (state, convergence_score DESC);

-- The updated_at trigger. SQLite has no BEFORE UPDATE assignment: an
-- AFTER UPDATE trigger sets it when the update did not (recursive triggers
-- are off, so it does not fire itself); the store sets it in its own
-- updates, which saves writing each row twice.
CREATE TRIGGER negotiations_updated_at AFTER UPDATE ON negotiations
FOR EACH ROW WHEN NEW.updated_at IS OLD.updated_at BEGIN
  UPDATE negotiations SET updated_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now')
   WHERE id = NEW.id;
END;

-- SQLite has no stored functions: expire_stale_negotiations() is this view
-- of what it expires, run by the store (actors/store/sqlite_backend.cpp) as
--   UPDATE negotiations SET state = 'expired'
--    WHERE id IN (SELECT id FROM expire_stale_negotiations)
-- and checked by `parley db verify` as PostgreSQL's function is.
CREATE VIEW expire_stale_negotiations AS
  SELECT id FROM negotiations
   WHERE expires_at < strftime('%Y-%m-%dT%H:%M:%fZ', 'now')
     AND state <> 'accepted' AND state <> 'rejected' AND state <> 'expired';

CREATE TABLE negotiations_archive (
  id TEXT PRIMARY KEY NOT NULL,
  intent_id TEXT NOT NULL,
  initiator_did TEXT NOT NULL,
  responder_did TEXT NOT NULL,
  state TEXT NOT NULL,
  rounds TEXT NOT NULL DEFAULT '[]',
  convergence_score NUMERIC,
  current_proposal TEXT,
  final_proposal TEXT,
  incentive_split TEXT DEFAULT '{"agent": 0.70, "broker": 0.10, "validator": 0.10, "pool": 0.10}',
  max_rounds INTEGER DEFAULT 10,
  created_at TEXT DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
  expires_at TEXT NOT NULL,
  updated_at TEXT DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);

CREATE TABLE negotiation_runtime (
  negotiation_id TEXT PRIMARY KEY NOT NULL REFERENCES negotiations (id) ON DELETE CASCADE,
  room_id TEXT NOT NULL,
  round_timeout_ms INTEGER NOT NULL,
  total_timeout_ms INTEGER NOT NULL,
  status_reason TEXT NOT NULL DEFAULT '',
  -- The runtime's intent id when it is not a UUID (intent_id then holds a
  -- UUID derived from it); '' otherwise.
  intent_text TEXT NOT NULL DEFAULT ''
);
