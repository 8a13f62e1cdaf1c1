-- Scenario "sweep-attachment-uploads": the statements the store sends, in order, as GORM's oracle dialector renders them.
-- Reviewed SQL for a dialect that is not run live here. Regenerate with `make golden`; see golden_test.go.
BEGIN
SELECT SYS_EXTRACT_UTC(SYSTIMESTAMP) FROM DUAL
SELECT id FROM user_task_attachments WHERE created_at IS NULL AND started_at < :1 ORDER BY started_at  FETCH NEXT :2 ROWS ONLY
--   binds: time.Time, int
DELETE FROM user_task_attachment_chunks WHERE attachment_id IN (:1)
--   binds: string
DELETE FROM user_task_attachments WHERE id IN (:1) AND created_at IS NULL
--   binds: string
COMMIT
