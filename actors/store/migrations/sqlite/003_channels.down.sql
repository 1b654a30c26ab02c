DROP TABLE IF EXISTS channel_events;
DROP TABLE IF EXISTS channels;
