-- Scenario "retry-delivery": the statements the store sends, in order, as GORM's sqlserver dialector renders them.
-- Reviewed SQL for a dialect that is not run live here. Regenerate with `make golden`; see golden_test.go.
BEGIN
SELECT SYSUTCDATETIME()
UPDATE "user_task_deliveries" SET "attempts"=@p1,"available_at"=@p2,"last_error"=@p3,"lease_expires_at"=@p4,"lease_owner"=@p5,"lease_token"=@p6,"state"=@p7,"updated_at"=@p8 WHERE id = @p9 AND state = @p10 AND lease_token = @p11 AND lease_generation = @p12 AND lease_expires_at > @p13
--   binds: int, time.Time, string, NULL x3, string, time.Time, string x3, int64, time.Time
COMMIT
