-- Scenario "verify-invitation-wrong-code": the statements the store sends, in order, as GORM's sqlserver dialector renders them.
-- Reviewed SQL for a dialect that is not run live here. Regenerate with `make golden`; see golden_test.go.
BEGIN
SELECT SYSUTCDATETIME()
SELECT * FROM "user_task_invitations" WHERE token_hash = @p1 ORDER BY "id" OFFSET 0 ROW FETCH NEXT 1 ROWS ONLY
--   binds: string
UPDATE "user_tasks" SET "revision"=revision WHERE tenant_id = @p1 AND id = @p2
--   binds: string x2
UPDATE "user_task_invitations" SET "code_attempts"=code_attempts WHERE tenant_id = @p1 AND id = @p2
--   binds: string x2
SELECT * FROM "user_task_invitations" WHERE tenant_id = @p1 AND id = @p2 ORDER BY "id" OFFSET 0 ROW FETCH NEXT 1 ROWS ONLY
--   binds: string x2
UPDATE "user_task_invitations" SET "code_attempts"=@p1,"updated_at"=@p2 WHERE tenant_id = @p3 AND id = @p4 AND code_attempts = @p5
--   binds: int, time.Time, string x2, int
COMMIT
