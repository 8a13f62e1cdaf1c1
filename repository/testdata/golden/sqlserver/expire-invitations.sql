-- Scenario "expire-invitations": the statements the store sends, in order, as GORM's sqlserver dialector renders them.
-- Reviewed SQL for a dialect that is not run live here. Regenerate with `make golden`; see golden_test.go.
BEGIN
SELECT SYSUTCDATETIME()
SELECT "id","tenant_id" FROM "user_task_invitations" WHERE status IN (@p1,@p2) AND expires_at <= @p3 ORDER BY expires_at, id OFFSET 0 ROW FETCH NEXT 200 ROWS ONLY
--   binds: string x2, time.Time
UPDATE "user_task_invitations" SET "status"=@p1,"updated_at"=@p2 WHERE tenant_id = @p3 AND id IN (@p4,@p5) AND status IN (@p6,@p7) AND expires_at <= @p8
--   binds: string, time.Time, string x5, time.Time
UPDATE "user_task_deliveries" SET "last_error"=@p1,"lease_expires_at"=@p2,"lease_owner"=@p3,"lease_token"=@p4,"state"=@p5,"updated_at"=@p6 WHERE tenant_id = @p7 AND invitation_id IN (@p8,@p9) AND state = @p10 AND (lease_expires_at IS NULL OR lease_expires_at <= @p11)
--   binds: string, NULL x3, string, time.Time, string x4, time.Time
COMMIT
