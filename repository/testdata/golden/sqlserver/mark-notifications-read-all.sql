-- Scenario "mark-notifications-read-all": the statements the store sends, in order, as GORM's sqlserver dialector renders them.
-- Reviewed SQL for a dialect that is not run live here. Regenerate with `make golden`; see golden_test.go.
BEGIN
SELECT SYSUTCDATETIME()
UPDATE "user_task_notifications" SET "read_at"=@p1,"updated_at"=@p2 WHERE (tenant_id = @p3 AND recipient_provider = @p4 AND recipient_type = @p5 AND recipient_id = @p6 AND visible_at IS NOT NULL) AND read_at IS NULL
--   binds: time.Time x2, string x4
COMMIT
