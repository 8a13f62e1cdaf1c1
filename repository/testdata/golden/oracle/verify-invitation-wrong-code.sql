-- Scenario "verify-invitation-wrong-code": the statements the store sends, in order, as GORM's oracle dialector renders them.
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
UPDATE user_task_invitations SET code_attempts=:1,updated_at=:2 WHERE tenant_id = :3 AND id = :4 AND code_attempts = :5
--   binds: int, time.Time, string x2, int
COMMIT
