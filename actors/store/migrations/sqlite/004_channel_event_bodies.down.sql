-- Back to JSON only. A compact body cannot be turned into JSON in SQL: a
-- channel with any event stored in that form loses all its events (its row
-- stays; a restart does not resume it).
CREATE TABLE channel_events_003 (
  channel_id TEXT NOT NULL REFERENCES channels (channel_id) ON DELETE CASCADE,
  seq INTEGER NOT NULL,
  type TEXT NOT NULL,
  at_ms INTEGER NOT NULL,
  event TEXT NOT NULL CONSTRAINT channel_events_event_check CHECK (
    json_valid(event) AND json_type(event) = 'object'),
  PRIMARY KEY (channel_id, seq)
);

INSERT INTO channel_events_003 (channel_id, seq, type, at_ms, event)
  SELECT channel_id, seq, type, at_ms, event FROM channel_events
  WHERE channel_id NOT IN (SELECT channel_id FROM channel_events WHERE body IS NOT NULL);
DROP TABLE channel_events;
ALTER TABLE channel_events_003 RENAME TO channel_events;
