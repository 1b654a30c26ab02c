DROP INDEX IF EXISTS idx_channels_owner;
DROP INDEX IF EXISTS idx_negotiation_runtime_owner;
ALTER TABLE cluster_members DROP COLUMN taken_over_by;
ALTER TABLE channels DROP COLUMN owner;
ALTER TABLE negotiation_runtime DROP COLUMN owner;
