-- A negotiation's deal score (docs/outcomes.md, "Scores of live negotiations"):
-- how good its end was for both parties, by their utilities over a shared
-- domain, as JSON text; NULL for a negotiation without one (most of them), so
-- the column costs nothing until a negotiation is scored. On negotiation_runtime,
-- the runtime's table: the seed's negotiations table keeps its columns.
ALTER TABLE negotiation_runtime ADD COLUMN score TEXT;
