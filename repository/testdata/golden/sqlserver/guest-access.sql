-- Scenario "guest-access": the statements the store sends, in order, as GORM's sqlserver dialector renders them.
-- Reviewed SQL for a dialect that is not run live here. Regenerate with `make golden`; see golden_test.go.
BEGIN
SELECT SYSUTCDATETIME()
SELECT * FROM "user_task_guest_sessions" WHERE token_hash = @p1 ORDER BY "id" OFFSET 0 ROW FETCH NEXT 1 ROWS ONLY
--   binds: string
SELECT * FROM "user_task_invitations" WHERE tenant_id = @p1 AND id = @p2 ORDER BY "id" OFFSET 0 ROW FETCH NEXT 1 ROWS ONLY
--   binds: string x2
SELECT * FROM "user_tasks" WHERE tenant_id = @p1 AND id = @p2 ORDER BY "id" OFFSET 0 ROW FETCH NEXT 1 ROWS ONLY
--   binds: string x2
ROLLBACK
