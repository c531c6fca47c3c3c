-- 007_leases: who works on a run or a report task is a lease (an owner and a heartbeat it refreshes every
-- 10 s, stale after 30 s), no longer the liveness of a PID (a zombie, a reused PID or another host's PID
-- would pass for alive). See src/warehouse/lease.ts.
--  * etl_runs.heartbeat_at: refreshed while the run is running; a `running` row whose heartbeat (or, before
--    its first beat, its start) is stale is closed as failed (abandoned) by the next startRun, on any host.
--  * platform_report_tasks.owner_id / heartbeat_at: the session waiting for an open task and its last beat;
--    another run resumes the task only once the heartbeat is stale (owner_pid / owner_host stay, for people).
ALTER TABLE etl_runs ADD COLUMN heartbeat_at TIMESTAMPTZ;
ALTER TABLE platform_report_tasks ADD COLUMN owner_id VARCHAR;
ALTER TABLE platform_report_tasks ADD COLUMN heartbeat_at TIMESTAMPTZ;
