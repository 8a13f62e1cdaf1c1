-- Scenario "put-attachment-chunk": the statements the store sends, in order, as GORM's oracle dialector renders them.
-- Reviewed SQL for a dialect that is not run live here. Regenerate with `make golden`; see golden_test.go.
BEGIN
SELECT SYS_EXTRACT_UTC(SYSTIMESTAMP) FROM DUAL
SELECT * FROM user_task_attachments WHERE tenant_id = :1 AND task_id = :2 AND id = :3 AND created_at IS NULL ORDER BY id  FETCH NEXT :4 ROWS ONLY
--   binds: string x3, int
INSERT INTO user_task_attachment_chunks (id,tenant_id,task_id,attachment_id,seq,plain_size,chunk_enc) VALUES (:1,:2,:3,:4,:5,:6,:7)
--   binds: string x4, int x2, []uint8
COMMIT
