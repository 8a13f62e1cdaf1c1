-- Scenario "claim-resumptions-none-due": the statements the store sends, in order, as GORM's sqlserver dialector renders them.
-- Reviewed SQL for a dialect that is not run live here. Regenerate with `make golden`; see golden_test.go.
BEGIN
SELECT SYSUTCDATETIME()
SELECT "id" FROM "user_task_resumptions" WHERE state = @p1 AND available_at <= @p2 AND (lease_expires_at IS NULL OR lease_expires_at <= @p3) ORDER BY available_at, id OFFSET 0 ROW FETCH NEXT 10 ROWS ONLY
--   binds: string, time.Time x2
COMMIT
