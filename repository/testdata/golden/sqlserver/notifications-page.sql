-- Scenario "notifications-page": the statements the store sends, in order, as GORM's sqlserver dialector renders them.
-- Reviewed SQL for a dialect that is not run live here. Regenerate with `make golden`; see golden_test.go.
BEGIN
SELECT * FROM "user_task_notifications" WHERE (tenant_id = @p1 AND recipient_provider = @p2 AND recipient_type = @p3 AND recipient_id = @p4 AND visible_at IS NOT NULL) AND read_at IS NULL AND (occurred_at <= @p5 AND (occurred_at < @p6 OR id < @p7)) ORDER BY occurred_at DESC, id DESC OFFSET 0 ROW FETCH NEXT 21 ROWS ONLY
--   binds: string x4, time.Time x2, string
SELECT count(*) FROM "user_task_notifications" WHERE (tenant_id = @p1 AND recipient_provider = @p2 AND recipient_type = @p3 AND recipient_id = @p4 AND visible_at IS NOT NULL) AND read_at IS NULL
--   binds: string x4
ROLLBACK
