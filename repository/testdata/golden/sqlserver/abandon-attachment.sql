-- Scenario "abandon-attachment": the statements the store sends, in order, as GORM's sqlserver dialector renders them.
-- Reviewed SQL for a dialect that is not run live here. Regenerate with `make golden`; see golden_test.go.
BEGIN
SELECT SYSUTCDATETIME()
SELECT count(*) FROM "user_task_attachments" WHERE tenant_id = @p1 AND task_id = @p2 AND id = @p3 AND created_at IS NULL
--   binds: string x3
DELETE FROM "user_task_attachment_chunks" WHERE attachment_id = @p1
--   binds: string
DELETE FROM "user_task_attachments" WHERE tenant_id = @p1 AND task_id = @p2 AND id = @p3 AND created_at IS NULL
--   binds: string x3
COMMIT
