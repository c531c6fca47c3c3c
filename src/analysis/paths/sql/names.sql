-- names: the projects and the channels of the warehouse's sessions, to check --project and --channel.
SELECT 'project' AS kind, project AS name FROM (SELECT DISTINCT project FROM sessions)
UNION
SELECT 'channel' AS kind, channel_type AS name FROM (SELECT DISTINCT channel_type FROM sessions)
WHERE name IS NOT NULL
ORDER BY kind, name
