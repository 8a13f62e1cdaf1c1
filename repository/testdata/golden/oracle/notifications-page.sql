-- Scenario "notifications-page": the statements the store sends, in order, as GORM's oracle dialector renders them.
-- Reviewed SQL for a dialect that is not run live here. Regenerate with `make golden`; see golden_test.go.
BEGIN
SELECT * FROM user_task_notifications WHERE (tenant_id = :1 AND recipient_provider = :2 AND recipient_type = :3 AND recipient_id = :4 AND visible_at IS NOT NULL) AND read_at IS NULL AND (occurred_at <= :5 AND (occurred_at < :6 OR id < :7)) ORDER BY occurred_at DESC, id DESC  FETCH NEXT :8 ROWS ONLY
--   binds: string x4, time.Time x2, string, int
SELECT count(*) FROM user_task_notifications WHERE (tenant_id = :1 AND recipient_provider = :2 AND recipient_type = :3 AND recipient_id = :4 AND visible_at IS NOT NULL) AND read_at IS NULL
--   binds: string x4
ROLLBACK
