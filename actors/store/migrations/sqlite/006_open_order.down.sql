DROP INDEX idx_negotiations_expires;
CREATE INDEX idx_negotiations_expires ON negotiations (expires_at)
  WHERE state <> 'accepted' AND state <> 'rejected' AND state <> 'expired';
