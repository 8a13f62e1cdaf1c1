-- Scenario "issue-invitation": the statements the store sends, in order, as GORM's oracle dialector renders them.
-- Reviewed SQL for a dialect that is not run live here. Regenerate with `make golden`; see golden_test.go.
BEGIN
SELECT SYS_EXTRACT_UTC(SYSTIMESTAMP) FROM DUAL
UPDATE user_tasks SET last_event_seq=last_event_seq + 1 WHERE tenant_id = :1 AND id = :2
--   binds: string x2
SELECT * FROM user_tasks WHERE tenant_id = :1 AND id = :2 ORDER BY id  FETCH NEXT :3 ROWS ONLY
--   binds: string x2, int
SELECT count(*) FROM user_task_invitations WHERE tenant_id = :1 AND task_id = :2
--   binds: string x2
INSERT INTO user_task_invitations (id,tenant_id,task_id,sibling_group_id,verifier_name,allowed_actions,bearer_only,recipient_enc,token_hash,code_hash,code_attempts,status,issued_by_provider,issued_by_type,issued_by_id,issued_at,expires_at,dispatched_at,verified_at,consumed_at,revoked_at,updated_at) VALUES (:1,:2,:3,:4,:5,:6,:7,:8,:9,:10,:11,:12,:13,:14,:15,:16,:17,:18,:19,:20,:21,:22)
--   binds: string x3, NULL, string x2, int, string x3, int, string x4, time.Time x2, NULL x4, time.Time
INSERT INTO user_task_deliveries (id,tenant_id,task_id,invitation_id,dispatcher,payload_enc,metadata,attempts,state,available_at,expires_at,last_error,idempotency_key,lease_owner,lease_token,lease_generation,lease_expires_at,created_at,updated_at) VALUES (:1,:2,:3,:4,:5,:6,:7,:8,:9,:10,:11,:12,:13,:14,:15,:16,:17,:18,:19)
--   binds: string x7, int, string, time.Time x2, NULL, string, NULL x2, int64, NULL, time.Time x2
INSERT INTO user_task_events (id,tenant_id,task_id,seq,revision,event_type,occurred_at,operation_id,actor_provider,actor_type,actor_id,actor_display,reason,metadata) VALUES (:1,:2,:3,:4,:5,:6,:7,:8,:9,:10,:11,:12,:13,:14)
--   binds: string x3, int x2, string, time.Time, NULL, string x4, NULL x2
COMMIT
