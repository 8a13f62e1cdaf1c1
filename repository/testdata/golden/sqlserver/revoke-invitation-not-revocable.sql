-- Scenario "revoke-invitation-not-revocable": the statements the store sends, in order, as GORM's sqlserver dialector renders them.
-- Reviewed SQL for a dialect that is not run live here. Regenerate with `make golden`; see golden_test.go.
BEGIN
SELECT SYSUTCDATETIME()
UPDATE "user_tasks" SET "last_event_seq"=last_event_seq + 1 WHERE tenant_id = @p1 AND id = @p2
--   binds: string x2
SELECT * FROM "user_tasks" WHERE tenant_id = @p1 AND id = @p2 ORDER BY "id" OFFSET 0 ROW FETCH NEXT 1 ROWS ONLY
--   binds: string x2
SELECT * FROM "user_task_invitations" WHERE tenant_id = @p1 AND task_id = @p2 AND id = @p3 ORDER BY "id" OFFSET 0 ROW FETCH NEXT 1 ROWS ONLY
--   binds: string x3
UPDATE "user_task_invitations" SET "revoked_at"=@p1,"status"=@p2,"updated_at"=@p3 WHERE tenant_id = @p4 AND id = @p5 AND status IN (@p6,@p7,@p8)
--   binds: time.Time, string, time.Time, string x5
ROLLBACK
