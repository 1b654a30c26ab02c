-- The members of clusters of `parley serve` nodes over one store
-- (docs/cluster.md, "Membership"): one row per incarnation of a node, with its
-- addresses, status and lease. Every time is the database's
-- (strftime('now')), never a node's. Clustering needs the PostgreSQL store;
-- SQLite has the table so that both back ends keep one schema (and the
-- membership code its tests on both).
--
-- The primary key is the incarnation alone, an AUTOINCREMENT rowid: an
-- incarnation is the fencing token of the node's writes, so it is never issued
-- twice, not even after old rows are deleted (AUTOINCREMENT never reuses one;
-- a max + 1 would). It grows with every join, so it grows per node id too.
-- Timestamps as in 001 (ISO 8601 text, which sorts in time order).
CREATE TABLE cluster_members (
  incarnation INTEGER PRIMARY KEY AUTOINCREMENT,
  cluster TEXT NOT NULL CONSTRAINT cluster_members_cluster_check CHECK (cluster <> ''),
  node_id TEXT NOT NULL CONSTRAINT cluster_members_node_id_check CHECK (node_id <> ''),
  -- host:port of its HTTP API and of its CAF node port.
  api_address TEXT NOT NULL,
  node_address TEXT NOT NULL,
  -- As stored; a lease that lapsed (lease_until < now) reads as dead.
  status TEXT NOT NULL CONSTRAINT cluster_members_status_check CHECK (
    status IN ('joining', 'live', 'leaving', 'dead')),
  joined_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
  heartbeat_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
  lease_until TEXT NOT NULL
);

-- A cluster's members, and a node's incarnations, in the order they are read.
CREATE INDEX idx_cluster_members_node ON cluster_members (cluster, node_id, incarnation);
