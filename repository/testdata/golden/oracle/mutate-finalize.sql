-- Scenario "mutate-finalize": the statements the store sends, in order, as GORM's oracle dialector renders them.
-- Reviewed SQL for a dialect that is not run live here. Regenerate with `make golden`; see golden_test.go.
BEGIN
SELECT SYS_EXTRACT_UTC(SYSTIMESTAMP) FROM DUAL
UPDATE user_tasks SET revision=revision WHERE tenant_id = :1 AND id = :2
--   binds: string x2
SELECT * FROM user_tasks WHERE tenant_id = :1 AND id = :2 ORDER BY id  FETCH NEXT :3 ROWS ONLY
--   binds: string x2, int
SELECT 0 AS row_kind, provider, participant_type, participant_id, display_name, source, source_key, source_group_provider, source_group_id, task_status FROM user_task_candidates WHERE task_id = :1 AND tenant_id = :2 UNION ALL SELECT 1, provider, participant_type, participant_id, display_name, NULL, NULL, NULL, NULL, NULL FROM user_task_exclusions WHERE task_id = :3 AND tenant_id = :4 ORDER BY row_kind, source, provider, participant_type, participant_id, source_key
--   binds: string x4
UPDATE user_tasks SET status=:1,completed_at=:2,revision=:3,last_event_seq=:4 WHERE (tenant_id = :5 AND revision = :6 AND last_event_seq = :7) AND id = :8
--   binds: string, time.Time, int x2, string, int x2, string
UPDATE user_task_candidates SET task_status=:1,updated_at=:2 WHERE task_id = :3 AND tenant_id = :4
--   binds: string, time.Time, string x2
UPDATE user_task_operations SET completed_at=:1,state=:2,updated_at=:3 WHERE tenant_id = :4 AND task_id = :5 AND state = :6
--   binds: time.Time, string, time.Time, string x3
UPDATE user_task_resumptions SET lease_expires_at=:1,lease_owner=:2,lease_token=:3,state=:4,updated_at=:5 WHERE tenant_id = :6 AND task_id = :7 AND state = :8
--   binds: NULL x3, string, time.Time, string x3
INSERT INTO user_task_events (id,tenant_id,task_id,seq,revision,event_type,occurred_at,operation_id,actor_provider,actor_type,actor_id,actor_display,reason,metadata) VALUES (:1,:2,:3,:4,:5,:6,:7,:8,:9,:10,:11,:12,:13,:14)
--   binds: string x3, int x2, string, time.Time, string, NULL x6
UPDATE user_task_tenant_counters SET open_tasks=open_tasks - 1,updated_at=:1 WHERE tenant_id = :2 AND stripe = :3 AND open_tasks > 0
--   binds: time.Time, string, int
UPDATE user_task_daily_stats SET event_count=event_count + 1,updated_at=:1,workflow_definition_name=:2 WHERE tenant_id = :3 AND stat_day = :4 AND workflow_definition_id = :5 AND metric = :6 AND bucket = :7 AND stripe = :8
--   binds: time.Time, string x5, int x2
COMMIT
