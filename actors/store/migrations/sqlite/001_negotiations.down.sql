DROP TABLE IF EXISTS negotiation_runtime;
DROP TABLE IF EXISTS negotiations_archive;
DROP VIEW IF EXISTS expire_stale_negotiations;
DROP TRIGGER IF EXISTS negotiations_updated_at;
DROP TABLE IF EXISTS negotiations;
