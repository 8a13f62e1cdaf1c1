-- Scenario "retry-resumption": the statements the store sends, in order, as GORM's sqlserver dialector renders them.
-- Reviewed SQL for a dialect that is not run live here. Regenerate with `make golden`; see golden_test.go.
BEGIN
SELECT SYSUTCDATETIME()
UPDATE "user_task_resumptions" SET "attempts"=@p1,"available_at"=@p2,"last_error"=@p3,"lease_expires_at"=@p4,"lease_owner"=@p5,"lease_token"=@p6,"updated_at"=@p7 WHERE id = @p8 AND state = @p9 AND lease_token = @p10 AND lease_generation = @p11 AND lease_expires_at > @p12
--   binds: int, time.Time, string, NULL x3, time.Time, string x3, int64, time.Time
COMMIT
