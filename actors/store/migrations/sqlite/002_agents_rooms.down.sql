DROP TABLE IF EXISTS parley_rooms;
DROP TABLE IF EXISTS parley_agents;
