-- Scenario "unread-notifications": the statements the store sends, in order, as GORM's sqlserver dialector renders them.
-- Reviewed SQL for a dialect that is not run live here. Regenerate with `make golden`; see golden_test.go.
BEGIN
SELECT count(*) FROM "user_task_notifications" WHERE (tenant_id = @p1 AND recipient_provider = @p2 AND recipient_type = @p3 AND recipient_id = @p4 AND visible_at IS NOT NULL) AND read_at IS NULL
--   binds: string x4
ROLLBACK
