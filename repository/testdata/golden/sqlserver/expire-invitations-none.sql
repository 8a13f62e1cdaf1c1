-- Scenario "expire-invitations-none": the statements the store sends, in order, as GORM's sqlserver dialector renders them.
-- Reviewed SQL for a dialect that is not run live here. Regenerate with `make golden`; see golden_test.go.
BEGIN
SELECT SYSUTCDATETIME()
SELECT "id","tenant_id" FROM "user_task_invitations" WHERE status IN (@p1,@p2) AND expires_at <= @p3 ORDER BY expires_at, id OFFSET 0 ROW FETCH NEXT 200 ROWS ONLY
--   binds: string x2, time.Time
COMMIT
