-- The members of clusters of `parley serve` nodes over one store
-- (docs/cluster.md, "Membership"): one row per incarnation of a node, with its
-- addresses, status and lease. Every time is the database's (now()), never a
-- node's: the nodes' clocks may disagree, the database's is the one clock
-- all of them read.
--
-- The primary key is the incarnation alone, from the table's identity
-- sequence: an incarnation is the fencing token of the node's writes
-- (docs/cluster.md, "Membership"), so it is never issued twice, not even
-- after old rows are deleted (a max + 1 would issue a deleted one again).
-- It grows with every join, so it grows per node id too. A join takes the
-- table's lock before it draws one, so joins commit in incarnation order.
CREATE TABLE cluster_members (
  incarnation BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  cluster TEXT NOT NULL CONSTRAINT cluster_members_cluster_check CHECK (cluster <> ''),
  node_id TEXT NOT NULL CONSTRAINT cluster_members_node_id_check CHECK (node_id <> ''),
  -- host:port of its HTTP API and of its CAF node port.
  api_address TEXT NOT NULL,
  node_address TEXT NOT NULL,
  -- As stored; a lease that lapsed (lease_until < now()) reads as dead.
  status TEXT NOT NULL CONSTRAINT cluster_members_status_check CHECK (
    status IN ('joining', 'live', 'leaving', 'dead')),
  joined_at TIMESTAMPTZ NOT NULL DEFAULT now(),
  heartbeat_at TIMESTAMPTZ NOT NULL DEFAULT now(),
  lease_until TIMESTAMPTZ NOT NULL
);

-- A cluster's members, and a node's incarnations, in the order they are read.
CREATE INDEX idx_cluster_members_node ON cluster_members (cluster, node_id, incarnation);
