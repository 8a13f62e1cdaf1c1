-- Scenario "verify-invitation-last-attempt": the statements the store sends, in order, as GORM's oracle dialector renders them.
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
UPDATE user_task_invitations SET code_attempts=:1,revoked_at=:2,status=:3,updated_at=:4 WHERE tenant_id = :5 AND id = :6 AND code_attempts = :7
--   binds: int, time.Time, string, time.Time, string x2, int
UPDATE user_task_deliveries SET lease_expires_at=:1,lease_owner=:2,lease_token=:3,state=:4,updated_at=:5 WHERE tenant_id = :6 AND invitation_id = :7 AND state = :8
--   binds: NULL x3, string, time.Time, string x3
UPDATE user_tasks SET last_event_seq=last_event_seq + 1 WHERE tenant_id = :1 AND id = :2
--   binds: string x2
SELECT * FROM user_tasks WHERE tenant_id = :1 AND id = :2 ORDER BY id  FETCH NEXT :3 ROWS ONLY
--   binds: string x2, int
INSERT INTO user_task_events (id,tenant_id,task_id,seq,revision,event_type,occurred_at,operation_id,actor_provider,actor_type,actor_id,actor_display,reason,metadata) VALUES (:1,:2,:3,:4,:5,:6,:7,:8,:9,:10,:11,:12,:13,:14)
--   binds: string x3, int x2, string, time.Time, NULL x6, string
COMMIT
