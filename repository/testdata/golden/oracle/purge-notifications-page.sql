-- Scenario "purge-notifications-page": the statements the store sends, in order, as GORM's oracle dialector renders them.
-- Reviewed SQL for a dialect that is not run live here. Regenerate with `make golden`; see golden_test.go.
BEGIN
SELECT SYS_EXTRACT_UTC(SYSTIMESTAMP) FROM DUAL
SELECT user_task_notifications.id FROM user_task_notifications WHERE user_task_notifications.tenant_id = :1 AND user_task_notifications.occurred_at <= :2 AND user_task_notifications.state IN (:3,:4,:5) AND (user_task_notifications.email_state IS NULL OR user_task_notifications.email_state <> :6) ORDER BY user_task_notifications.occurred_at, user_task_notifications.id  FETCH NEXT :7 ROWS ONLY
--   binds: string, time.Time, string x4, int
DELETE FROM user_task_notifications WHERE tenant_id = :1 AND id IN (:2)
--   binds: string x2
COMMIT
