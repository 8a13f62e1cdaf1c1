-- Scenario "add-comment": the statements the store sends, in order, as GORM's oracle dialector renders them.
-- Reviewed SQL for a dialect that is not run live here. Regenerate with `make golden`; see golden_test.go.
BEGIN
SELECT SYS_EXTRACT_UTC(SYSTIMESTAMP) FROM DUAL
UPDATE user_tasks SET last_event_seq=last_event_seq + 1 WHERE tenant_id = :1 AND id = :2
--   binds: string x2
SELECT * FROM user_tasks WHERE tenant_id = :1 AND id = :2 ORDER BY id  FETCH NEXT :3 ROWS ONLY
--   binds: string x2, int
SELECT 0 AS row_kind, provider, participant_type, participant_id, display_name, source, source_key, source_group_provider, source_group_id, task_status FROM user_task_candidates WHERE task_id = :1 AND tenant_id = :2 UNION ALL SELECT 1, provider, participant_type, participant_id, display_name, NULL, NULL, NULL, NULL, NULL FROM user_task_exclusions WHERE task_id = :3 AND tenant_id = :4 ORDER BY row_kind, source, provider, participant_type, participant_id, source_key
--   binds: string x4
SELECT * FROM user_task_comments WHERE tenant_id = :1 AND task_id = :2 AND id = :3 ORDER BY id  FETCH NEXT :4 ROWS ONLY
--   binds: string x3, int
SELECT count(*) FROM user_task_comments WHERE tenant_id = :1 AND task_id = :2
--   binds: string x2
INSERT INTO user_task_comments (id,tenant_id,task_id,author_provider,author_type,author_id,author_display,body_enc,created_at,deleted_at) VALUES (:1,:2,:3,:4,:5,:6,:7,:8,:9,:10)
--   binds: string x8, time.Time, NULL
INSERT INTO user_task_events (id,tenant_id,task_id,seq,revision,event_type,occurred_at,operation_id,actor_provider,actor_type,actor_id,actor_display,reason,metadata) VALUES (:1,:2,:3,:4,:5,:6,:7,:8,:9,:10,:11,:12,:13,:14)
--   binds: string x3, int x2, string, time.Time, NULL, string x4, NULL, string
INSERT INTO user_task_notifications (id,tenant_id,task_id,trigger_kind,revision,recipient_provider,recipient_type,recipient_id,actor_provider,actor_type,actor_id,actor_display,title,state,email_state,webhook_state,attempts,available_at,last_error,lease_owner,lease_token,lease_generation,lease_expires_at,occurred_at,visible_at,read_at,updated_at) VALUES (:1,:2,:3,:4,:5,:6,:7,:8,:9,:10,:11,:12,:13,:14,:15,:16,:17,:18,:19,:20,:21,:22,:23,:24,:25,:26,:27)
--   binds: string x4, int64, string x9, NULL x2, int, time.Time, NULL x3, int64, NULL, time.Time, NULL x2, time.Time
INSERT INTO user_task_notifications (id,tenant_id,task_id,trigger_kind,revision,recipient_provider,recipient_type,recipient_id,actor_provider,actor_type,actor_id,actor_display,title,state,email_state,webhook_state,attempts,available_at,last_error,lease_owner,lease_token,lease_generation,lease_expires_at,occurred_at,visible_at,read_at,updated_at) VALUES (:1,:2,:3,:4,:5,:6,:7,:8,:9,:10,:11,:12,:13,:14,:15,:16,:17,:18,:19,:20,:21,:22,:23,:24,:25,:26,:27)
--   binds: string x4, int64, string x9, NULL x2, int, time.Time, NULL x3, int64, NULL, time.Time, NULL x2, time.Time
COMMIT
