DROP TABLE IF EXISTS cluster_members;
