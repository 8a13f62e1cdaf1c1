-- Scenario "mutate-assignment-changed": the statements the store sends, in order, as GORM's oracle dialector renders them.
-- Reviewed SQL for a dialect that is not run live here. Regenerate with `make golden`; see golden_test.go.
BEGIN
SELECT SYS_EXTRACT_UTC(SYSTIMESTAMP) FROM DUAL
UPDATE user_tasks SET revision=revision WHERE tenant_id = :1 AND id = :2
--   binds: string x2
SELECT * FROM user_tasks WHERE tenant_id = :1 AND id = :2 ORDER BY id  FETCH NEXT :3 ROWS ONLY
--   binds: string x2, int
SELECT 0 AS row_kind, provider, participant_type, participant_id, display_name, source, source_key, source_group_provider, source_group_id, task_status FROM user_task_candidates WHERE task_id = :1 AND tenant_id = :2 UNION ALL SELECT 1, provider, participant_type, participant_id, display_name, NULL, NULL, NULL, NULL, NULL FROM user_task_exclusions WHERE task_id = :3 AND tenant_id = :4 ORDER BY row_kind, source, provider, participant_type, participant_id, source_key
--   binds: string x4
UPDATE user_tasks SET priority=:1,candidate_users=:2,revision=:3,last_event_seq=:4 WHERE (tenant_id = :5 AND revision = :6 AND last_event_seq = :7) AND id = :8
--   binds: int x4, string, int x2, string
DELETE FROM user_task_candidates WHERE task_id = :1 AND tenant_id = :2
--   binds: string x2
DELETE FROM user_task_exclusions WHERE task_id = :1 AND tenant_id = :2
--   binds: string x2
INSERT INTO user_task_candidates (id,tenant_id,task_id,provider,participant_type,participant_id,display_name,source,source_key,source_group_provider,source_group_id,task_status,created_at,updated_at) VALUES (:1,:2,:3,:4,:5,:6,:7,:8,:9,:10,:11,:12,:13,:14)
--   binds: string x9, NULL x2, string, time.Time x2
INSERT INTO user_task_candidates (id,tenant_id,task_id,provider,participant_type,participant_id,display_name,source,source_key,source_group_provider,source_group_id,task_status,created_at,updated_at) VALUES (:1,:2,:3,:4,:5,:6,:7,:8,:9,:10,:11,:12,:13,:14)
--   binds: string x9, NULL x2, string, time.Time x2
INSERT INTO user_task_candidates (id,tenant_id,task_id,provider,participant_type,participant_id,display_name,source,source_key,source_group_provider,source_group_id,task_status,created_at,updated_at) VALUES (:1,:2,:3,:4,:5,:6,:7,:8,:9,:10,:11,:12,:13,:14)
--   binds: string x6, NULL, string x2, NULL x2, string, time.Time x2
INSERT INTO user_task_candidates (id,tenant_id,task_id,provider,participant_type,participant_id,display_name,source,source_key,source_group_provider,source_group_id,task_status,created_at,updated_at) VALUES (:1,:2,:3,:4,:5,:6,:7,:8,:9,:10,:11,:12,:13,:14)
--   binds: string x9, NULL x2, string, time.Time x2
INSERT INTO user_task_exclusions (id,tenant_id,task_id,provider,participant_type,participant_id,display_name,created_at) VALUES (:1,:2,:3,:4,:5,:6,:7,:8)
--   binds: string x7, time.Time
INSERT INTO user_task_events (id,tenant_id,task_id,seq,revision,event_type,occurred_at,operation_id,actor_provider,actor_type,actor_id,actor_display,reason,metadata) VALUES (:1,:2,:3,:4,:5,:6,:7,:8,:9,:10,:11,:12,:13,:14)
--   binds: string x3, int x2, string, time.Time, NULL x7
COMMIT
