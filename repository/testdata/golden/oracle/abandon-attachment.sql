-- Scenario "abandon-attachment": the statements the store sends, in order, as GORM's oracle dialector renders them.
-- Reviewed SQL for a dialect that is not run live here. Regenerate with `make golden`; see golden_test.go.
BEGIN
SELECT SYS_EXTRACT_UTC(SYSTIMESTAMP) FROM DUAL
SELECT count(*) FROM user_task_attachments WHERE tenant_id = :1 AND task_id = :2 AND id = :3 AND created_at IS NULL
--   binds: string x3
DELETE FROM user_task_attachment_chunks WHERE attachment_id = :1
--   binds: string
DELETE FROM user_task_attachments WHERE tenant_id = :1 AND task_id = :2 AND id = :3 AND created_at IS NULL
--   binds: string x3
COMMIT
