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
SELECT 0 AS row_kind, provider, participant_type, participant_id, display_name, source, source_key, source_group_provider, source_group_id, task_status FROM user_task_candidates WHERE task_id = :1 AND tenant_id = :2 UNION ALL SELECT 1, provider, participant_type, participant_id, display_name, NULL, NULL, NULL, NULL, NULL FROM user_task_exclusions WHERE task_id = :3 AND tenant_id = :4 ORDER BY row_kind, source, provider, participant_type, participant_id, source_key
--   binds: string x4
UPDATE user_tasks SET status=:1,assigned_at=:2,assignee_provider=:3,assignee_type=:4,assignee_id=:5,assignee_display=:6,revision=:7,last_event_seq=:8 WHERE (tenant_id = :9 AND revision = :10 AND last_event_seq = :11) AND id = :12
--   binds: string, time.Time, string x4, int x2, string, int x2, string
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
