-- Scenario "settle-notification-retry": the statements the store sends, in order, as GORM's sqlserver dialector renders them.
-- Reviewed SQL for a dialect that is not run live here. Regenerate with `make golden`; see golden_test.go.
BEGIN
SELECT SYSUTCDATETIME()
UPDATE "user_task_notifications" SET "attempts"=@p1,"available_at"=@p2,"email_state"=@p3,"last_error"=@p4,"lease_expires_at"=@p5,"lease_owner"=@p6,"lease_token"=@p7,"state"=@p8,"updated_at"=@p9,"visible_at"=@p10,"webhook_state"=@p11 WHERE id = @p12 AND state = @p13 AND lease_token = @p14 AND lease_generation = @p15 AND lease_expires_at > @p16
--   binds: int, time.Time, string x2, NULL x3, string, time.Time x2, NULL, string x3, int64, time.Time
COMMIT
