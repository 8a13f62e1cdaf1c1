-- Scenario "release-lease": the statements the store sends, in order, as GORM's sqlserver dialector renders them.
-- Reviewed SQL for a dialect that is not run live here. Regenerate with `make golden`; see golden_test.go.
BEGIN
SELECT SYSUTCDATETIME()
UPDATE "user_task_leases" SET "lease_expires_at"=@p1,"updated_at"=@p2 WHERE lease_name = @p3 AND lease_token = @p4 AND lease_generation = @p5
--   binds: time.Time x2, string x2, int64
COMMIT
