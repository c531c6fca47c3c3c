-- 016_owner_identity: an owner is its host, PID, boot id and start time (src/process/process-identity.ts), so an owner
-- on the same host whose PID is gone, is a zombie, or is another process now is known dead at once, and its
-- work is taken over without waiting for its heartbeat to go stale. Owners on other hosts keep the heartbeat
-- rule (src/warehouse/lease.ts). Rows written before this migration have NULL here: their heartbeat decides.
--  * boot_id: /proc/sys/kernel/random/boot_id of the owner's host; start_ticks: field 22 of /proc/<pid>/stat
--    (clock ticks after boot). NULL where there is no procfs (not Linux).
--  * kb_eval_runs gets the owner's pid and host too (it had none).
ALTER TABLE etl_runs ADD COLUMN boot_id VARCHAR;
ALTER TABLE etl_runs ADD COLUMN start_ticks BIGINT;
ALTER TABLE platform_report_tasks ADD COLUMN owner_boot_id VARCHAR;
ALTER TABLE platform_report_tasks ADD COLUMN owner_start_ticks BIGINT;
ALTER TABLE kb_eval_runs ADD COLUMN pid INTEGER;
ALTER TABLE kb_eval_runs ADD COLUMN host VARCHAR;
ALTER TABLE kb_eval_runs ADD COLUMN boot_id VARCHAR;
ALTER TABLE kb_eval_runs ADD COLUMN start_ticks BIGINT;
