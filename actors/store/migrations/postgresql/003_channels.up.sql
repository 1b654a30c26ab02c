-- The channels (multi-party negotiations, docs/protocols/channels.md): each channel's
-- events, in order, from which `parley serve` rebuilds every open channel after a
-- restart, and each channel's row as it stands after its latest event (what the API
-- shows). Written by the store in its group commit; the JSON is the wire JSON of
-- messages/channel_json.cpp. The store writes a channel's row before its events.
CREATE TABLE channels (
  channel_id TEXT PRIMARY KEY,
  demand_id TEXT NOT NULL,
  -- A sub-channel's parent; NULL for a top channel.
  parent_channel_id TEXT,
  depth INTEGER NOT NULL DEFAULT 0 CONSTRAINT channels_depth_check CHECK (depth >= 0),
  -- The channel's status after its latest event.
  status TEXT NOT NULL CONSTRAINT channels_status_check CHECK (status IN (
    'created', 'broadcasting', 'collecting', 'aggregating', 'proposal_sent',
    'negotiating', 'finalized', 'force_finalized', 'failed')),
  round INTEGER NOT NULL DEFAULT 1,
  -- The latest channel_proposal; NULL before the first.
  proposal JSONB CONSTRAINT channels_proposal_check CHECK (
    proposal IS NULL OR jsonb_typeof(proposal) = 'object'),
  -- Offers this round and feedback on its proposal, one per agent.
  responses INTEGER NOT NULL DEFAULT 0,
  feedback INTEGER NOT NULL DEFAULT 0,
  created_at TIMESTAMPTZ NOT NULL,
  updated_at TIMESTAMPTZ NOT NULL
);

CREATE INDEX idx_channels_demand ON channels (demand_id);
CREATE INDEX idx_channels_open ON channels (created_at)
  WHERE status NOT IN ('finalized', 'force_finalized', 'failed');

CREATE TABLE channel_events (
  channel_id TEXT NOT NULL REFERENCES channels (channel_id) ON DELETE CASCADE,
  -- 1, 2, … in the order the channel published them.
  seq INTEGER NOT NULL,
  -- The event's kind as its topic names it, e.g. 'proposal.finalized'.
  type TEXT NOT NULL,
  at_ms BIGINT NOT NULL,
  event JSONB NOT NULL CONSTRAINT channel_events_event_check CHECK (
    jsonb_typeof(event) = 'object'),
  PRIMARY KEY (channel_id, seq)
);
