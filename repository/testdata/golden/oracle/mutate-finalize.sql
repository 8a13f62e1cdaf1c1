-- Scenario "mutate-finalize": the statements the store sends, in order, as GORM's oracle dialector renders them.
-- Reviewed SQL for a dialect that is not run live here. Regenerate with `make golden`; see golden_test.go.
BEGIN
SELECT SYS_EXTRACT_UTC(SYSTIMESTAMP) FROM DUAL
UPDATE user_tasks SET revision=revision WHERE tenant_id = :1 AND id = :2
--   binds: string x2
SELECT * FROM user_tasks WHERE tenant_id = :1 AND id = :2 ORDER BY id  FETCH NEXT :3 ROWS ONLY
--   binds: string x2, int
SELECT * FROM user_task_candidates WHERE task_id = :1 AND tenant_id = :2 ORDER BY source, provider, participant_type, participant_id, source_key
--   binds: string x2
SELECT * FROM user_task_exclusions WHERE task_id = :1 AND tenant_id = :2 ORDER BY provider, participant_type, participant_id
--   binds: string x2
SELECT * FROM user_task_operations WHERE tenant_id = :1 AND task_id = :2 AND operation_id = :3 ORDER BY id  FETCH NEXT :4 ROWS ONLY
--   binds: string x3, int
UPDATE user_tasks SET workflow_definition_id=:1,workflow_definition_name=:2,workflow_definition_version=:3,workflow_instance_id=:4,workflow_instance_reference=:5,activity_instance_id=:6,title=:7,summary=:8,reference=:9,task_type=:10,tags=:11,search_text=:12,requester_provider=:13,requester_type=:14,requester_id=:15,requester_display=:16,priority=:17,due_at=:18,is_overdue=:19,status=:20,updated_at=:21,assigned_at=:22,completed_at=:23,transitioned_at=:24,assignee_provider=:25,assignee_type=:26,assignee_id=:27,assignee_display=:28,membership_mode=:29,allow_exclusion_override=:30,candidate_users=:31,candidate_groups=:32,actions_json=:33,timeout_enabled=:34,cancellation_enabled=:35,health_severity=:36,health_code=:37,health_message=:38,instructions_enc=:39,task_data_enc=:40,form_enc=:41,invitation_defs_enc=:42,completion_data_enc=:43,completion_action_key=:44,completed_by_provider=:45,completed_by_type=:46,completed_by_id=:47,completed_by_display=:48,revision=:49,last_event_seq=:50 WHERE (tenant_id = :51 AND revision = :52 AND last_event_seq = :53) AND id = :54
--   binds: string x2, int, string x7, NULL, string, NULL x4, int, NULL, int, string, time.Time x4, string x5, int x3, string, int x2, NULL x13, int x2, string, int x2, string
UPDATE user_task_candidates SET task_status=:1,updated_at=:2 WHERE task_id = :3 AND tenant_id = :4
--   binds: string, time.Time, string x2
UPDATE user_task_operations SET completed_at=:1,state=:2,updated_at=:3 WHERE tenant_id = :4 AND task_id = :5 AND state = :6
--   binds: time.Time, string, time.Time, string x3
UPDATE user_task_resumptions SET lease_expires_at=:1,lease_owner=:2,lease_token=:3,state=:4,updated_at=:5 WHERE tenant_id = :6 AND task_id = :7 AND state = :8
--   binds: NULL x3, string, time.Time, string x3
UPDATE user_task_tenant_counters SET open_tasks=open_tasks - 1,updated_at=:1 WHERE tenant_id = :2 AND stripe = :3 AND open_tasks > 0
--   binds: time.Time, string, int
UPDATE user_task_daily_stats SET event_count=event_count + 1,updated_at=:1,workflow_definition_name=:2 WHERE tenant_id = :3 AND stat_day = :4 AND workflow_definition_id = :5 AND metric = :6 AND bucket = :7
--   binds: time.Time, string x5, int
INSERT INTO user_task_events (id,tenant_id,task_id,seq,revision,event_type,occurred_at,operation_id,actor_provider,actor_type,actor_id,actor_display,reason,metadata) VALUES (:1,:2,:3,:4,:5,:6,:7,:8,:9,:10,:11,:12,:13,:14)
--   binds: string x3, int x2, string, time.Time, string, NULL x6
COMMIT
