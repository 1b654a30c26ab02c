-- The agents and rooms registered over the API (`parley serve`), so that a
-- restarted server can re-spawn them before it resumes the open negotiations
-- they take part in. Agent ids are the runtime's (DID-style strings such as
-- did:key:z6Mk... are valid); they are not foreign keys of negotiations, whose
-- rows outlive the agents. created_at is clock_timestamp(), not NOW(): rows
-- load in creation order, and NOW() is the transaction's start.
CREATE TABLE parley_agents (
  id TEXT PRIMARY KEY,
  -- The agent_spec the agent was registered with.
  spec JSONB NOT NULL CONSTRAINT parley_agents_spec_check CHECK (
    jsonb_typeof(spec) = 'object'),
  created_at TIMESTAMPTZ NOT NULL DEFAULT clock_timestamp()
);

CREATE TABLE parley_rooms (
  id TEXT PRIMARY KEY,
  -- Its members' agent ids, a JSON array of strings.
  members JSONB NOT NULL DEFAULT '[]' CONSTRAINT parley_rooms_members_check CHECK (
    jsonb_typeof(members) = 'array'),
  created_at TIMESTAMPTZ NOT NULL DEFAULT clock_timestamp()
);
