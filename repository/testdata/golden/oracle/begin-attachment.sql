-- Scenario "begin-attachment": the statements the store sends, in order, as GORM's oracle dialector renders them.
-- Reviewed SQL for a dialect that is not run live here. Regenerate with `make golden`; see golden_test.go.
BEGIN
SELECT SYS_EXTRACT_UTC(SYSTIMESTAMP) FROM DUAL
SELECT * FROM user_tasks WHERE tenant_id = :1 AND id = :2 ORDER BY id  FETCH NEXT :3 ROWS ONLY
--   binds: string x2, int
INSERT INTO user_task_attachments (id,tenant_id,task_id,file_name_enc,content_type,size_bytes,sha256,chunks,uploader_provider,uploader_type,uploader_id,uploader_display,started_at,created_at) VALUES (:1,:2,:3,:4,:5,:6,:7,:8,:9,:10,:11,:12,:13,:14)
--   binds: string x4, NULL, int64, NULL, int, string x4, time.Time, NULL
COMMIT
