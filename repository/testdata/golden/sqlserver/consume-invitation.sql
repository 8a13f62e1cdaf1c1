-- Scenario "consume-invitation": the statements the store sends, in order, as GORM's sqlserver dialector renders them.
-- Reviewed SQL for a dialect that is not run live here. Regenerate with `make golden`; see golden_test.go.
BEGIN
SELECT SYSUTCDATETIME()
UPDATE "user_task_invitations" SET "consumed_at"=@p1,"status"=@p2,"updated_at"=@p3 WHERE tenant_id = @p4 AND id = @p5 AND status = @p6
--   binds: time.Time, string, time.Time, string x3
UPDATE "user_task_guest_sessions" SET "revoked_at"=@p1 WHERE tenant_id = @p2 AND invitation_id = @p3 AND revoked_at IS NULL
--   binds: time.Time, string x2
COMMIT
