-- Scenario "mark-notifications-read": the statements the store sends, in order, as GORM's sqlserver dialector renders them.
-- Reviewed SQL for a dialect that is not run live here. Regenerate with `make golden`; see golden_test.go.
BEGIN
SELECT SYSUTCDATETIME()
UPDATE "user_task_notifications" SET "read_at"=@p1,"updated_at"=@p2 WHERE id IN (@p3,@p4) AND (tenant_id = @p5 AND recipient_provider = @p6 AND recipient_type = @p7 AND recipient_id = @p8 AND visible_at IS NOT NULL) AND read_at IS NULL
--   binds: time.Time x2, string x6
COMMIT
