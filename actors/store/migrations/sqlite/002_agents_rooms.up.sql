-- The agents and rooms registered over the API (`parley serve`), so that a
-- restarted server can re-spawn them before it resumes the open negotiations
-- they take part in. Agent ids are the runtime's (DID-style strings such as
-- did:key:z6Mk... are valid); they are not foreign keys of negotiations, whose
-- rows outlive the agents. JSON as the store writes it (messages/json.hpp),
-- checked once here: these rows are written rarely. Timestamps as in 001.
CREATE TABLE parley_agents (
  id TEXT PRIMARY KEY NOT NULL,
  -- The agent_spec the agent was registered with.
  spec TEXT NOT NULL CONSTRAINT parley_agents_spec_check CHECK (
    json_valid(spec) AND json_type(spec) = 'object'),
  created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);

CREATE TABLE parley_rooms (
  id TEXT PRIMARY KEY NOT NULL,
  -- Its members' agent ids, a JSON array of strings.
  members TEXT NOT NULL DEFAULT '[]' CONSTRAINT parley_rooms_members_check CHECK (
    json_valid(members) AND json_type(members) = 'array'),
  created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);
