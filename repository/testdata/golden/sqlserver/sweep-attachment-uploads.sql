-- Scenario "sweep-attachment-uploads": the statements the store sends, in order, as GORM's sqlserver dialector renders them.
-- Reviewed SQL for a dialect that is not run live here. Regenerate with `make golden`; see golden_test.go.
BEGIN
SELECT SYSUTCDATETIME()
SELECT "id" FROM "user_task_attachments" WHERE created_at IS NULL AND started_at < @p1 ORDER BY started_at OFFSET 0 ROW FETCH NEXT 50 ROWS ONLY
--   binds: time.Time
DELETE FROM "user_task_attachment_chunks" WHERE attachment_id IN (@p1)
--   binds: string
DELETE FROM "user_task_attachments" WHERE id IN (@p1) AND created_at IS NULL
--   binds: string
COMMIT
