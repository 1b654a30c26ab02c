ALTER TABLE negotiation_runtime DROP COLUMN score;
