-- Scenario "settle-notification-lease-lost": the statements the store sends, in order, as GORM's sqlserver dialector renders them.
-- Reviewed SQL for a dialect that is not run live here. Regenerate with `make golden`; see golden_test.go.
BEGIN
SELECT SYSUTCDATETIME()
UPDATE "user_task_notifications" SET "attempts"=@p1,"email_state"=@p2,"last_error"=@p3,"lease_expires_at"=@p4,"lease_owner"=@p5,"lease_token"=@p6,"state"=@p7,"updated_at"=@p8,"webhook_state"=@p9 WHERE id = @p10 AND state = @p11 AND lease_token = @p12 AND lease_generation = @p13 AND lease_expires_at > @p14
--   binds: int, string, NULL x4, string, time.Time, string x4, int64, time.Time
ROLLBACK
