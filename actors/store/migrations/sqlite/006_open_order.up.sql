-- Crash recovery reads the open negotiations page by page in the order
-- (expires_at, id) (actors/store/query.hpp, open_page_sql). With the index
-- on expires_at alone, every page sorted all the open rows that share one
-- expires_at: a store of 100,000 negotiations created in the same instant
-- took twice as long to recover as reading it whole (docs/benchmarks/memory.md, "Memory
-- after a load"). The same partial index, with id as its second column, is a
-- range to start each page from; it still serves the expiry sweep.
DROP INDEX idx_negotiations_expires;
CREATE INDEX idx_negotiations_expires ON negotiations (expires_at, id)
  WHERE state <> 'accepted' AND state <> 'rejected' AND state <> 'expired';
