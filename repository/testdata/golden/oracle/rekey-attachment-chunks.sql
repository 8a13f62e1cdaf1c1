-- Scenario "rekey-attachment-chunks": the statements the store sends, in order, as GORM's oracle dialector renders them.
-- Reviewed SQL for a dialect that is not run live here. Regenerate with `make golden`; see golden_test.go.
BEGIN
SELECT SYS_EXTRACT_UTC(SYSTIMESTAMP) FROM DUAL
SELECT * FROM user_task_attachment_chunks ORDER BY id  FETCH NEXT :1 ROWS ONLY
--   binds: int
COMMIT
