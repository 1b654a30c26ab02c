DROP TABLE IF EXISTS negotiation_runtime;
DROP TABLE IF EXISTS negotiations_archive;
DROP TRIGGER IF EXISTS negotiations_updated_at ON negotiations;
DROP FUNCTION IF EXISTS expire_stale_negotiations();
DROP FUNCTION IF EXISTS update_negotiations_updated_at();
DROP TABLE IF EXISTS negotiations;
