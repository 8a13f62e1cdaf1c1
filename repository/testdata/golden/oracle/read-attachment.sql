-- Scenario "read-attachment": the statements the store sends, in order, as GORM's oracle dialector renders them.
-- Reviewed SQL for a dialect that is not run live here. Regenerate with `make golden`; see golden_test.go.
BEGIN
SELECT * FROM user_task_attachments WHERE (tenant_id = :1 AND task_id = :2 AND created_at IS NOT NULL) AND id = :3 ORDER BY id  FETCH NEXT :4 ROWS ONLY
--   binds: string x3, int
ROLLBACK
BEGIN
SELECT * FROM user_task_attachment_chunks WHERE id = :1 AND attachment_id = :2 AND tenant_id = :3 AND task_id = :4 ORDER BY id  FETCH NEXT :5 ROWS ONLY
--   binds: string x4, int
ROLLBACK
BEGIN
SELECT * FROM user_task_attachment_chunks WHERE id = :1 AND attachment_id = :2 AND tenant_id = :3 AND task_id = :4 ORDER BY id  FETCH NEXT :5 ROWS ONLY
--   binds: string x4, int
ROLLBACK
