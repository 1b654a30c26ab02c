-- Channel events in their compact form (actors/store/channel_codec.hpp): a
-- `body` of about a third of the event's JSON, written without building or
-- parsing JSON. The events stored before keep their JSON in `event`; every
-- row has exactly one of the two.
ALTER TABLE channel_events ALTER COLUMN event DROP NOT NULL;
-- A format byte, then the compact codec's bytes.
ALTER TABLE channel_events ADD COLUMN body BYTEA;
ALTER TABLE channel_events ADD CONSTRAINT channel_events_form_check
  CHECK ((event IS NULL) <> (body IS NULL));
