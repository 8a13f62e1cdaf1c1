-- Scenario "read-attachment": the statements the store sends, in order, as GORM's sqlserver dialector renders them.
-- Reviewed SQL for a dialect that is not run live here. Regenerate with `make golden`; see golden_test.go.
BEGIN
SELECT * FROM "user_task_attachments" WHERE (tenant_id = @p1 AND task_id = @p2 AND created_at IS NOT NULL) AND id = @p3 ORDER BY "id" OFFSET 0 ROW FETCH NEXT 1 ROWS ONLY
--   binds: string x3
ROLLBACK
BEGIN
SELECT * FROM "user_task_attachment_chunks" WHERE id = @p1 AND attachment_id = @p2 AND tenant_id = @p3 AND task_id = @p4 ORDER BY "id" OFFSET 0 ROW FETCH NEXT 1 ROWS ONLY
--   binds: string x4
ROLLBACK
BEGIN
SELECT * FROM "user_task_attachment_chunks" WHERE id = @p1 AND attachment_id = @p2 AND tenant_id = @p3 AND task_id = @p4 ORDER BY "id" OFFSET 0 ROW FETCH NEXT 1 ROWS ONLY
--   binds: string x4
ROLLBACK
