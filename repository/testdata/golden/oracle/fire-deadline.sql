-- Scenario "fire-deadline": the statements the store sends, in order, as GORM's oracle dialector renders them.
-- Reviewed SQL for a dialect that is not run live here. Regenerate with `make golden`; see golden_test.go.
BEGIN
SELECT SYS_EXTRACT_UTC(SYSTIMESTAMP) FROM DUAL
UPDATE user_tasks SET revision=revision WHERE tenant_id = :1 AND id = :2
--   binds: string x2
SELECT id,tenant_id,workflow_definition_id,workflow_definition_name,workflow_definition_version,workflow_instance_id,workflow_instance_reference,activity_instance_id,bookmark_id,materialization_key,title,summary,reference,task_type,tags,requester_provider,requester_type,requester_id,requester_display,priority,due_at,is_overdue,status,created_at,updated_at,assigned_at,completed_at,transitioned_at,assignee_provider,assignee_type,assignee_id,assignee_display,membership_mode,allow_exclusion_override,candidate_users,candidate_groups,actions_json,timeout_enabled,cancellation_enabled,health_severity,health_code,health_message,completion_action_key,completed_by_provider,completed_by_type,completed_by_id,completed_by_display,revision,last_event_seq,delegated_by_provider,delegated_by_type,delegated_by_id,delegated_by_display,invitation_defs_enc FROM user_tasks WHERE tenant_id = :1 AND id = :2 ORDER BY id  FETCH NEXT :3 ROWS ONLY
--   binds: string x2, int
SELECT 0 AS row_kind, provider, participant_type, participant_id, display_name, source, source_key, source_group_provider, source_group_id, task_status FROM user_task_candidates WHERE task_id = :1 AND tenant_id = :2 UNION ALL SELECT 1, provider, participant_type, participant_id, display_name, NULL, NULL, NULL, NULL, NULL FROM user_task_exclusions WHERE task_id = :3 AND tenant_id = :4 ORDER BY row_kind, source, provider, participant_type, participant_id, source_key
--   binds: string x4
SELECT * FROM user_task_deadlines WHERE task_id = :1 AND idx = :2 AND tenant_id = :3 ORDER BY (SELECT NULL FROM DUAL) FETCH NEXT :4 ROWS ONLY
--   binds: string, int, string, int
UPDATE user_task_deadlines SET fired_at=:1,state=:2 WHERE task_id = :3 AND idx = :4 AND tenant_id = :5 AND state = :6
--   binds: time.Time, string x2, int, string x2
UPDATE user_tasks SET priority=:1,candidate_users=:2,revision=:3,last_event_seq=:4 WHERE (tenant_id = :5 AND revision = :6 AND last_event_seq = :7) AND id = :8
--   binds: int x4, string, int x2, string
DELETE FROM user_task_candidates WHERE task_id = :1 AND tenant_id = :2
--   binds: string x2
DELETE FROM user_task_exclusions WHERE task_id = :1 AND tenant_id = :2
--   binds: string x2
INSERT INTO user_task_candidates (id,tenant_id,task_id,provider,participant_type,participant_id,display_name,source,source_key,source_group_provider,source_group_id,task_status,created_at,updated_at) VALUES (:1,:2,:3,:4,:5,:6,:7,:8,:9,:10,:11,:12,:13,:14)
--   binds: string x6, NULL, string x2, NULL x2, string, time.Time x2
INSERT INTO user_task_exclusions (id,tenant_id,task_id,provider,participant_type,participant_id,display_name,created_at) VALUES (:1,:2,:3,:4,:5,:6,:7,:8)
--   binds: string x7, time.Time
INSERT INTO user_task_events (id,tenant_id,task_id,seq,revision,event_type,occurred_at,operation_id,actor_provider,actor_type,actor_id,actor_display,reason,metadata) VALUES (:1,:2,:3,:4,:5,:6,:7,:8,:9,:10,:11,:12,:13,:14)
--   binds: string x3, int x2, string, time.Time, string, NULL x5, string
INSERT INTO user_task_operations (id,tenant_id,task_id,operation_id,kind,expected_revision,request_hash,state,attempts,action_key,reason,actor_provider,actor_type,actor_id,actor_display,result_json,payload_enc,created_at,updated_at,completed_at) VALUES (:1,:2,:3,:4,:5,:6,:7,:8,:9,:10,:11,:12,:13,:14,:15,:16,:17,:18,:19,:20)
--   binds: string x5, int, string x2, int, NULL x6, string, NULL, time.Time x3
UPDATE user_task_daily_stats SET event_count=event_count + 1,updated_at=:1,workflow_definition_name=:2 WHERE tenant_id = :3 AND stat_day = :4 AND workflow_definition_id = :5 AND metric = :6 AND bucket = :7 AND stripe = :8
--   binds: time.Time, string x5, int x2
INSERT INTO user_task_notifications (id,tenant_id,task_id,trigger_kind,revision,recipient_provider,recipient_type,recipient_id,actor_provider,actor_type,actor_id,actor_display,title,state,email_state,webhook_state,attempts,available_at,last_error,lease_owner,lease_token,lease_generation,lease_expires_at,occurred_at,visible_at,read_at,updated_at) VALUES (:1,:2,:3,:4,:5,:6,:7,:8,:9,:10,:11,:12,:13,:14,:15,:16,:17,:18,:19,:20,:21,:22,:23,:24,:25,:26,:27)
--   binds: string x4, int64, string x3, NULL x4, string x2, NULL x2, int, time.Time, NULL x3, int64, NULL, time.Time, NULL x2, time.Time
INSERT INTO user_task_notifications (id,tenant_id,task_id,trigger_kind,revision,recipient_provider,recipient_type,recipient_id,actor_provider,actor_type,actor_id,actor_display,title,state,email_state,webhook_state,attempts,available_at,last_error,lease_owner,lease_token,lease_generation,lease_expires_at,occurred_at,visible_at,read_at,updated_at) VALUES (:1,:2,:3,:4,:5,:6,:7,:8,:9,:10,:11,:12,:13,:14,:15,:16,:17,:18,:19,:20,:21,:22,:23,:24,:25,:26,:27)
--   binds: string x4, int64, string x3, NULL x4, string x2, NULL x2, int, time.Time, NULL x3, int64, NULL, time.Time, NULL x2, time.Time
COMMIT
