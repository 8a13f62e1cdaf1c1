-- Scenario "release-resumption": the statements the store sends, in order, as GORM's sqlserver dialector renders them.
-- Reviewed SQL for a dialect that is not run live here. Regenerate with `make golden`; see golden_test.go.
BEGIN
SELECT SYSUTCDATETIME()
UPDATE "user_task_resumptions" SET "lease_expires_at"=@p1,"lease_owner"=@p2,"lease_token"=@p3,"updated_at"=@p4 WHERE id = @p5 AND state = @p6 AND lease_token = @p7 AND lease_generation = @p8 AND lease_expires_at > @p9
--   binds: NULL x3, time.Time, string x3, int64, time.Time
COMMIT
