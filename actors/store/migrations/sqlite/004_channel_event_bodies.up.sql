-- Channel events in their compact form (actors/store/channel_codec.hpp): a
-- `body` of about a third of the event's JSON, written without building or
-- checking JSON. The events stored before keep their JSON in `event`; every
-- row has exactly one of the two. SQLite cannot change a column's
-- constraints in place, so the table is built again (rows stay in the order
-- they were written: a commit appends to the table's last pages).
CREATE TABLE channel_events_004 (
  channel_id TEXT NOT NULL REFERENCES channels (channel_id) ON DELETE CASCADE,
  -- 1, 2, … in the order the channel published them.
  seq INTEGER NOT NULL,
  -- The event's kind as its topic names it, e.g. 'proposal.finalized'.
  type TEXT NOT NULL,
  at_ms INTEGER NOT NULL,
  -- The wire JSON of messages/channel_json.cpp (events stored before 004).
  event TEXT CONSTRAINT channel_events_event_check CHECK (
    event IS NULL OR (json_valid(event) AND json_type(event) = 'object')),
  -- A format byte, then the compact codec's bytes.
  body BLOB,
  CONSTRAINT channel_events_form_check CHECK ((event IS NULL) <> (body IS NULL)),
  PRIMARY KEY (channel_id, seq)
);

INSERT INTO channel_events_004 (channel_id, seq, type, at_ms, event)
  SELECT channel_id, seq, type, at_ms, event FROM channel_events;
DROP TABLE channel_events;
ALTER TABLE channel_events_004 RENAME TO channel_events;
