-- The negotiation record (docs/protocols/record-and-schema.md), its six indexes, the
-- updated_at trigger, expire_stale_negotiations() and the archive table.
CREATE TABLE negotiations (
  id UUID PRIMARY KEY DEFAULT gen_random_uuid(),
  intent_id UUID NOT NULL,
  initiator_did TEXT NOT NULL,
  responder_did TEXT NOT NULL,
  state TEXT NOT NULL CONSTRAINT negotiations_state_check CHECK (state IN (
    'initiated', 'proposed', 'counter_proposed', 'accepted', 'rejected', 'expired')),
  rounds JSONB NOT NULL DEFAULT '[]',
  convergence_score NUMERIC(3,2) CONSTRAINT negotiations_convergence_score_check
    CHECK (convergence_score >= 0.0 AND convergence_score <= 1.0),
  current_proposal JSONB,
  final_proposal JSONB,
  incentive_split JSONB DEFAULT '{"agent": 0.70, "broker": 0.10, "validator": 0.10, "pool": 0.10}',
  max_rounds INTEGER DEFAULT 10 CONSTRAINT negotiations_max_rounds_check
    CHECK (max_rounds >= 1 AND max_rounds <= 20),
  created_at TIMESTAMPTZ DEFAULT NOW(),
  expires_at TIMESTAMPTZ NOT NULL,
  updated_at TIMESTAMPTZ DEFAULT NOW()
);

CREATE INDEX idx_negotiations_intent ON negotiations (intent_id);
CREATE INDEX idx_negotiations_initiator ON negotiations (initiator_did, created_at DESC);
CREATE INDEX idx_negotiations_responder ON negotiations (responder_did, created_at DESC);
CREATE INDEX idx_negotiations_state ON negotiations (state, created_at DESC);
CREATE INDEX idx_negotiations_expires ON negotiations (expires_at)
  WHERE state NOT IN ('accepted', 'rejected', 'expired');
CREATE INDEX idx_negotiations_convergence ON negotiations (state, convergence_score DESC);

CREATE FUNCTION update_negotiations_updated_at() RETURNS TRIGGER AS $$
BEGIN
  NEW.updated_at = NOW();
  RETURN NEW;
END;
$$ LANGUAGE plpgsql;

CREATE TRIGGER negotiations_updated_at BEFORE UPDATE ON negotiations
  FOR EACH ROW EXECUTE FUNCTION update_negotiations_updated_at();

CREATE FUNCTION expire_stale_negotiations() RETURNS INTEGER AS $$
DECLARE
  expired_count INTEGER;
BEGIN
  UPDATE negotiations SET state = 'expired'
   WHERE expires_at < NOW()
     AND state NOT IN ('accepted', 'rejected', 'expired');
  GET DIAGNOSTICS expired_count = ROW_COUNT;
  RETURN expired_count;
END;
$$ LANGUAGE plpgsql;

-- The archive: the same columns, filled by `parley db archive`.
CREATE TABLE negotiations_archive (LIKE negotiations INCLUDING DEFAULTS);
ALTER TABLE negotiations_archive ADD PRIMARY KEY (id);

-- What the runtime needs beyond the original columns to resume a negotiation
-- after a restart (its room, its timeouts, why it ended), one row per
-- negotiation, kept apart so that the original table stays exactly as written.
CREATE TABLE negotiation_runtime (
  negotiation_id UUID PRIMARY KEY REFERENCES negotiations (id) ON DELETE CASCADE,
  room_id TEXT NOT NULL,
  round_timeout_ms BIGINT NOT NULL,
  total_timeout_ms BIGINT NOT NULL,
  status_reason TEXT NOT NULL DEFAULT '',
  -- The runtime's intent id when it is not a UUID (intent_id then holds a
  -- UUID derived from it); '' otherwise.
  intent_text TEXT NOT NULL DEFAULT ''
);
