-- Scenario "rekey-attachment-chunks": the statements the store sends, in order, as GORM's sqlserver dialector renders them.
-- Reviewed SQL for a dialect that is not run live here. Regenerate with `make golden`; see golden_test.go.
BEGIN
SELECT SYSUTCDATETIME()
SELECT * FROM "user_task_attachment_chunks" ORDER BY id OFFSET 0 ROW FETCH NEXT 8 ROWS ONLY
COMMIT
