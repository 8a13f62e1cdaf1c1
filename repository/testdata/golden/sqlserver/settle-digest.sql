-- Scenario "settle-digest": the statements the store sends, in order, as GORM's sqlserver dialector renders them.
-- Reviewed SQL for a dialect that is not run live here. Regenerate with `make golden`; see golden_test.go.
BEGIN
SELECT SYSUTCDATETIME()
UPDATE "user_task_notifications" SET "email_state"=@p1,"lease_expires_at"=@p2,"lease_owner"=@p3,"lease_token"=@p4,"updated_at"=@p5 WHERE id = @p6 AND email_state = @p7 AND lease_token = @p8 AND lease_generation = @p9 AND lease_expires_at > @p10
--   binds: string, NULL x3, time.Time, string x3, int64, time.Time
UPDATE "user_task_notifications" SET "email_state"=@p1,"lease_expires_at"=@p2,"lease_owner"=@p3,"lease_token"=@p4,"updated_at"=@p5 WHERE id = @p6 AND email_state = @p7 AND lease_token = @p8 AND lease_generation = @p9 AND lease_expires_at > @p10
--   binds: string, NULL x3, time.Time, string x3, int64, time.Time
COMMIT
