-- Scenario "guest-access": the statements the store sends, in order, as GORM's oracle dialector renders them.
-- Reviewed SQL for a dialect that is not run live here. Regenerate with `make golden`; see golden_test.go.
BEGIN
SELECT SYS_EXTRACT_UTC(SYSTIMESTAMP) FROM DUAL
SELECT * FROM user_task_guest_sessions WHERE token_hash = :1 ORDER BY id  FETCH NEXT :2 ROWS ONLY
--   binds: string, int
SELECT * FROM user_task_invitations WHERE tenant_id = :1 AND id = :2 ORDER BY id  FETCH NEXT :3 ROWS ONLY
--   binds: string x2, int
SELECT * FROM user_tasks WHERE tenant_id = :1 AND id = :2 ORDER BY id  FETCH NEXT :3 ROWS ONLY
--   binds: string x2, int
ROLLBACK
