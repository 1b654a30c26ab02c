DROP TABLE IF EXISTS parley_demands;
