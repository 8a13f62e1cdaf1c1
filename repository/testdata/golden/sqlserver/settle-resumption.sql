-- Scenario "settle-resumption": the statements the store sends, in order, as GORM's sqlserver dialector renders them.
-- Reviewed SQL for a dialect that is not run live here. Regenerate with `make golden`; see golden_test.go.
BEGIN
SELECT SYSUTCDATETIME()
UPDATE "user_task_resumptions" SET "lease_expires_at"=@p1,"lease_owner"=@p2,"lease_token"=@p3,"state"=@p4,"updated_at"=@p5 WHERE id = @p6 AND state = @p7 AND lease_token = @p8 AND lease_generation = @p9 AND lease_expires_at > @p10
--   binds: NULL x3, string, time.Time, string x3, int64, time.Time
COMMIT
