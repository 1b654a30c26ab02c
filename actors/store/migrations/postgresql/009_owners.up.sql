-- Who runs what in a cluster (docs/cluster.md, "Ownership and take-over"):
-- the incarnation of the node that runs an open negotiation or channel (NULL:
-- no cluster's node wrote it: a single node's store), and which incarnation
-- took over a dead member's work (NULL: nobody yet). The owner columns make
-- the tables the directory; taken_over_by lets exactly one survivor claim a
-- dead member (a conditional update on its row).
ALTER TABLE negotiation_runtime ADD COLUMN owner BIGINT;
ALTER TABLE channels ADD COLUMN owner BIGINT;
ALTER TABLE cluster_members ADD COLUMN taken_over_by BIGINT;

-- A take-over moves a dead member's rows by their owner.
CREATE INDEX idx_negotiation_runtime_owner ON negotiation_runtime (owner);
CREATE INDEX idx_channels_owner ON channels (owner);
