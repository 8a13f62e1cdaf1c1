-- Scenario "list-comments-after-cursor": the statements the store sends, in order, as GORM's oracle dialector renders them.
-- Reviewed SQL for a dialect that is not run live here. Regenerate with `make golden`; see golden_test.go.
BEGIN
SELECT * FROM user_task_comments WHERE (tenant_id = :1 AND task_id = :2) AND (created_at >= :3 AND (created_at > :4 OR id > :5)) ORDER BY created_at, id  FETCH NEXT :6 ROWS ONLY
--   binds: string x2, time.Time x2, string, int
ROLLBACK
