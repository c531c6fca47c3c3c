-- The instant `report kb-eval` defaults to without --from/--to (its period is the local day holding it): the
-- start of the latest kb eval run that finished normally, else of the latest run of any status; NULL with none.
SELECT coalesce(max(epoch_ms(started_at)) FILTER (WHERE baseline), max(epoch_ms(started_at))) AS latest
FROM kb_eval_run_changes
