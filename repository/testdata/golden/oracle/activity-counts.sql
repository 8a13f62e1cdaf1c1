-- Scenario "activity-counts": the statements the store sends, in order, as GORM's oracle dialector renders them.
-- Reviewed SQL for a dialect that is not run live here. Regenerate with `make golden`; see golden_test.go.
BEGIN
SELECT task_id, COUNT(*) AS n FROM user_task_comments WHERE tenant_id = :1 AND task_id IN (:2,:3) AND deleted_at IS NULL GROUP BY task_id
--   binds: string x3
SELECT task_id, COUNT(*) AS n FROM user_task_attachments WHERE tenant_id = :1 AND task_id IN (:2,:3) AND created_at IS NOT NULL GROUP BY task_id
--   binds: string x3
ROLLBACK
