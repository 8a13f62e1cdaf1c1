-- Scenario "purge-notifications-page": the statements the store sends, in order, as GORM's sqlserver dialector renders them.
-- Reviewed SQL for a dialect that is not run live here. Regenerate with `make golden`; see golden_test.go.
BEGIN
SELECT SYSUTCDATETIME()
SELECT "user_task_notifications"."id" FROM "user_task_notifications" WHERE user_task_notifications.tenant_id = @p1 AND user_task_notifications.occurred_at <= @p2 AND user_task_notifications.state IN (@p3,@p4,@p5) AND (user_task_notifications.email_state IS NULL OR user_task_notifications.email_state <> @p6) ORDER BY user_task_notifications.occurred_at, user_task_notifications.id OFFSET 0 ROW FETCH NEXT 2 ROWS ONLY
--   binds: string, time.Time, string x4
DELETE FROM user_task_notifications WHERE tenant_id = @p1 AND id IN (@p2)
--   binds: string x2
COMMIT
