-- Scenario "create-with-deadline-policy": the statements the store sends, in order, as GORM's oracle dialector renders them.
-- Reviewed SQL for a dialect that is not run live here. Regenerate with `make golden`; see golden_test.go.
BEGIN
SELECT SYS_EXTRACT_UTC(SYSTIMESTAMP) FROM DUAL
SELECT count(*) FROM user_task_tenants WHERE tenant_id = :1
--   binds: string
SELECT * FROM user_task_tenant_counters WHERE tenant_id = :1 ORDER BY stripe
--   binds: string
COMMIT
BEGIN
SELECT SYS_EXTRACT_UTC(SYSTIMESTAMP) FROM DUAL
SELECT id FROM user_tasks WHERE tenant_id = :1 AND (materialization_key = :2 OR bookmark_id = :3) ORDER BY id  FETCH NEXT :4 ROWS ONLY
--   binds: string x3, int
SELECT * FROM user_task_deadline_policies WHERE tenant_id = :1 AND workflow_definition_id = :2 ORDER BY (SELECT NULL FROM DUAL) FETCH NEXT :3 ROWS ONLY
--   binds: string x2, int
INSERT INTO user_tasks (id,tenant_id,workflow_definition_id,workflow_definition_name,workflow_definition_version,workflow_instance_id,workflow_instance_reference,activity_instance_id,bookmark_id,materialization_key,title,summary,reference,task_type,tags,search_text,requester_provider,requester_type,requester_id,requester_display,priority,due_at,is_overdue,status,created_at,updated_at,assigned_at,completed_at,transitioned_at,assignee_provider,assignee_type,assignee_id,assignee_display,membership_mode,allow_exclusion_override,candidate_users,candidate_groups,actions_json,timeout_enabled,cancellation_enabled,health_severity,health_code,health_message,instructions_enc,task_data_enc,form_enc,invitation_defs_enc,completion_data_enc,completion_action_key,completed_by_provider,completed_by_type,completed_by_id,completed_by_display,revision,last_event_seq,delegated_by_provider,delegated_by_type,delegated_by_id,delegated_by_display) VALUES (:1,:2,:3,:4,:5,:6,:7,:8,:9,:10,:11,:12,:13,:14,:15,:16,:17,:18,:19,:20,:21,:22,:23,:24,:25,:26,:27,:28,:29,:30,:31,:32,:33,:34,:35,:36,:37,:38,:39,:40,:41,:42,:43,:44,:45,:46,:47,:48,:49,:50,:51,:52,:53,:54,:55,:56,:57,:58,:59)
--   binds: string x4, int, string x9, NULL, string, NULL x4, int, NULL, int, string, time.Time x2, NULL x7, string, int x3, string, int x2, NULL x13, int x2, NULL x4
INSERT INTO user_task_candidates (id,tenant_id,task_id,provider,participant_type,participant_id,display_name,source,source_key,source_group_provider,source_group_id,task_status,created_at,updated_at) VALUES (:1,:2,:3,:4,:5,:6,:7,:8,:9,:10,:11,:12,:13,:14)
--   binds: string x6, NULL, string x2, NULL x2, string, time.Time x2
INSERT INTO user_task_events (id,tenant_id,task_id,seq,revision,event_type,occurred_at,operation_id,actor_provider,actor_type,actor_id,actor_display,reason,metadata) VALUES (:1,:2,:3,:4,:5,:6,:7,:8,:9,:10,:11,:12,:13,:14)
--   binds: string x3, int x2, string, time.Time, NULL x6, string
INSERT INTO user_task_deadlines (tenant_id,task_id,idx,kind,due_at,actions_json,state,fired_at,created_at) VALUES (:1,:2,:3,:4,:5,:6,:7,:8,:9)
--   binds: string x2, int, string, time.Time, string x2, NULL, time.Time
INSERT INTO user_task_notifications (id,tenant_id,task_id,trigger_kind,revision,recipient_provider,recipient_type,recipient_id,actor_provider,actor_type,actor_id,actor_display,title,state,email_state,webhook_state,attempts,available_at,last_error,lease_owner,lease_token,lease_generation,lease_expires_at,occurred_at,visible_at,read_at,updated_at) VALUES (:1,:2,:3,:4,:5,:6,:7,:8,:9,:10,:11,:12,:13,:14,:15,:16,:17,:18,:19,:20,:21,:22,:23,:24,:25,:26,:27)
--   binds: string x4, int64, string x3, NULL x4, string x2, NULL x2, int, time.Time, NULL x3, int64, NULL, time.Time, NULL x2, time.Time
UPDATE user_task_daily_stats SET event_count=event_count + 1,updated_at=:1,workflow_definition_name=:2 WHERE tenant_id = :3 AND stat_day = :4 AND workflow_definition_id = :5 AND metric = :6 AND bucket = :7 AND stripe = :8
--   binds: time.Time, string x5, int x2
UPDATE user_task_tenant_counters SET open_tasks=open_tasks + 1,updated_at=:1 WHERE tenant_id = :2 AND stripe = :3 AND open_tasks < :4
--   binds: time.Time, string, int x2
COMMIT
