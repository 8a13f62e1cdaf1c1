-- Scenario "ack-delivery-lease-lost": the statements the store sends, in order, as GORM's sqlserver dialector renders them.
-- Reviewed SQL for a dialect that is not run live here. Regenerate with `make golden`; see golden_test.go.
BEGIN
SELECT SYSUTCDATETIME()
UPDATE "user_task_deliveries" SET "attempts"=@p1,"lease_expires_at"=@p2,"lease_owner"=@p3,"lease_token"=@p4,"state"=@p5,"updated_at"=@p6 WHERE id = @p7 AND state = @p8 AND lease_token = @p9 AND lease_generation = @p10 AND lease_expires_at > @p11
--   binds: int, NULL x3, string, time.Time, string x3, int64, time.Time
ROLLBACK
