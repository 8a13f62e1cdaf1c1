-- Scenario "verify-invitation": the statements the store sends, in order, as GORM's oracle dialector renders them.
-- Reviewed SQL for a dialect that is not run live here. Regenerate with `make golden`; see golden_test.go.
BEGIN
SELECT SYS_EXTRACT_UTC(SYSTIMESTAMP) FROM DUAL
SELECT * FROM user_task_invitations WHERE token_hash = :1 ORDER BY id  FETCH NEXT :2 ROWS ONLY
--   binds: string, int
UPDATE user_tasks SET revision=revision WHERE tenant_id = :1 AND id = :2
--   binds: string x2
UPDATE user_task_invitations SET code_attempts=code_attempts WHERE tenant_id = :1 AND id = :2
--   binds: string x2
SELECT * FROM user_task_invitations WHERE tenant_id = :1 AND id = :2 ORDER BY id  FETCH NEXT :3 ROWS ONLY
--   binds: string x2, int
SELECT * FROM user_tasks WHERE tenant_id = :1 AND id = :2 ORDER BY id  FETCH NEXT :3 ROWS ONLY
--   binds: string x2, int
SELECT * FROM user_task_candidates WHERE task_id = :1 AND tenant_id = :2 ORDER BY source, provider, participant_type, participant_id, source_key
--   binds: string x2
SELECT * FROM user_task_exclusions WHERE task_id = :1 AND tenant_id = :2 ORDER BY provider, participant_type, participant_id
--   binds: string x2
UPDATE user_tasks SET workflow_definition_id=:1,workflow_definition_name=:2,workflow_definition_version=:3,workflow_instance_id=:4,workflow_instance_reference=:5,activity_instance_id=:6,title=:7,summary=:8,reference=:9,task_type=:10,tags=:11,search_text=:12,requester_provider=:13,requester_type=:14,requester_id=:15,requester_display=:16,priority=:17,due_at=:18,is_overdue=:19,status=:20,updated_at=:21,assigned_at=:22,completed_at=:23,transitioned_at=:24,assignee_provider=:25,assignee_type=:26,assignee_id=:27,assignee_display=:28,membership_mode=:29,allow_exclusion_override=:30,candidate_users=:31,candidate_groups=:32,actions_json=:33,timeout_enabled=:34,cancellation_enabled=:35,health_severity=:36,health_code=:37,health_message=:38,instructions_enc=:39,task_data_enc=:40,form_enc=:41,invitation_defs_enc=:42,completion_data_enc=:43,completion_action_key=:44,completed_by_provider=:45,completed_by_type=:46,completed_by_id=:47,completed_by_display=:48,revision=:49,last_event_seq=:50 WHERE (tenant_id = :51 AND revision = :52 AND last_event_seq = :53) AND id = :54
--   binds: string x2, int, string x7, NULL, string, NULL x4, int, NULL, int, string, time.Time x2, NULL x2, string x5, int x3, string, int x2, NULL x13, int x2, string, int x2, string
UPDATE user_task_candidates SET task_status=:1,updated_at=:2 WHERE task_id = :3 AND tenant_id = :4
--   binds: string, time.Time, string x2
INSERT INTO user_task_events (id,tenant_id,task_id,seq,revision,event_type,occurred_at,operation_id,actor_provider,actor_type,actor_id,actor_display,reason,metadata) VALUES (:1,:2,:3,:4,:5,:6,:7,:8,:9,:10,:11,:12,:13,:14)
--   binds: string x3, int x2, string, time.Time, string x5, NULL, string
INSERT INTO user_task_operations (id,tenant_id,task_id,operation_id,kind,expected_revision,request_hash,state,attempts,action_key,reason,actor_provider,actor_type,actor_id,actor_display,result_json,payload_enc,created_at,updated_at,completed_at) VALUES (:1,:2,:3,:4,:5,:6,:7,:8,:9,:10,:11,:12,:13,:14,:15,:16,:17,:18,:19,:20)
--   binds: string x5, int, string x2, int, NULL x2, string x5, NULL, time.Time x3
UPDATE user_task_invitations SET status=:1,updated_at=:2,verified_at=:3 WHERE tenant_id = :4 AND id = :5 AND status IN (:6,:7)
--   binds: string, time.Time x2, string x4
UPDATE user_task_deliveries SET lease_expires_at=:1,lease_owner=:2,lease_token=:3,state=:4,updated_at=:5 WHERE tenant_id = :6 AND invitation_id = :7 AND state = :8
--   binds: NULL x3, string, time.Time, string x3
SELECT id,tenant_id,task_id FROM user_task_invitations WHERE tenant_id = :1 AND sibling_group_id = :2 AND id <> :3 AND status IN (:4,:5) ORDER BY id
--   binds: string x5
UPDATE user_task_invitations SET revoked_at=:1,status=:2,updated_at=:3 WHERE tenant_id = :4 AND id = :5 AND status IN (:6,:7)
--   binds: time.Time, string, time.Time, string x4
UPDATE user_task_deliveries SET lease_expires_at=:1,lease_owner=:2,lease_token=:3,state=:4,updated_at=:5 WHERE tenant_id = :6 AND invitation_id = :7 AND state = :8
--   binds: NULL x3, string, time.Time, string x3
UPDATE user_tasks SET last_event_seq=last_event_seq + 1 WHERE tenant_id = :1 AND id = :2
--   binds: string x2
SELECT * FROM user_tasks WHERE tenant_id = :1 AND id = :2 ORDER BY id  FETCH NEXT :3 ROWS ONLY
--   binds: string x2, int
INSERT INTO user_task_events (id,tenant_id,task_id,seq,revision,event_type,occurred_at,operation_id,actor_provider,actor_type,actor_id,actor_display,reason,metadata) VALUES (:1,:2,:3,:4,:5,:6,:7,:8,:9,:10,:11,:12,:13,:14)
--   binds: string x3, int x2, string, time.Time, NULL x6, string
INSERT INTO user_task_guest_sessions (id,tenant_id,task_id,invitation_id,token_hash,participant_provider,participant_id,capabilities,issued_at,expires_at,revoked_at) VALUES (:1,:2,:3,:4,:5,:6,:7,:8,:9,:10,:11)
--   binds: string x8, time.Time x2, NULL
COMMIT
