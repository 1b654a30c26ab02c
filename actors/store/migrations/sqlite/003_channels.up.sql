-- The channels (multi-party negotiations, docs/protocols/channels.md): each channel's
-- events, in order, from which `parley serve` rebuilds every open channel after a
-- restart, and each channel's row as it stands after its latest event (what the API
-- shows). Written by the store in its group commit; the JSON is the wire JSON of
-- messages/channel_json.cpp. The foreign key is declared, not enforced (as in 001): the
-- store writes a channel's row before its events. Lists of states are written out as
-- comparisons, as in 001 (and why).
CREATE TABLE channels (
  channel_id TEXT PRIMARY KEY NOT NULL,
  demand_id TEXT NOT NULL,
  -- A sub-channel's parent; NULL for a top channel.
  parent_channel_id TEXT,
  depth INTEGER NOT NULL DEFAULT 0 CONSTRAINT channels_depth_check CHECK (depth >= 0),
  -- The channel's status after its latest event.
  status TEXT NOT NULL CONSTRAINT channels_status_check CHECK (
    status = 'created' OR status = 'broadcasting' OR status = 'collecting'
    OR status = 'aggregating' OR status = 'proposal_sent' OR status = 'negotiating'
    OR status = 'finalized' OR status = 'force_finalized' OR status = 'failed'),
  round INTEGER NOT NULL DEFAULT 1,
  -- The latest channel_proposal; NULL before the first.
  proposal TEXT CONSTRAINT channels_proposal_check CHECK (
    proposal IS NULL OR (json_valid(proposal) AND json_type(proposal) = 'object')),
  -- Offers this round and feedback on its proposal, one per agent.
  responses INTEGER NOT NULL DEFAULT 0,
  feedback INTEGER NOT NULL DEFAULT 0,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);

CREATE INDEX idx_channels_demand ON channels (demand_id);
CREATE INDEX idx_channels_open ON channels (created_at)
  WHERE status <> 'finalized' AND status <> 'force_finalized' AND status <> 'failed';

CREATE TABLE channel_events (
  channel_id TEXT NOT NULL REFERENCES channels (channel_id) ON DELETE CASCADE,
  -- 1, 2, … in the order the channel published them.
  seq INTEGER NOT NULL,
  -- The event's kind as its topic names it, e.g. 'proposal.finalized'.
  type TEXT NOT NULL,
  at_ms INTEGER NOT NULL,
  event TEXT NOT NULL CONSTRAINT channel_events_event_check CHECK (
    json_valid(event) AND json_type(event) = 'object'),
  PRIMARY KEY (channel_id, seq)
);
