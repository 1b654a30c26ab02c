-- The demands as submitted over the API (`POST /api/v1/demand/submit`):
-- who asked (user_id), what they wrote (raw_input) and how the coordinator
-- understood it, so that `GET /api/v1/demands/{id}` answers after a restart,
-- for an ended demand too (its channels are in `channels`). The demand_view
-- JSON as the store writes it (messages/json.hpp), channels left out.
-- Written once per demand, before its receipt is answered.
CREATE TABLE parley_demands (
  id TEXT PRIMARY KEY NOT NULL,
  demand TEXT NOT NULL CONSTRAINT parley_demands_demand_check CHECK (
    json_valid(demand) AND json_type(demand) = 'object'),
  created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);
