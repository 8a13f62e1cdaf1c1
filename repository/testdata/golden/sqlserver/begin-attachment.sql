-- Scenario "begin-attachment": the statements the store sends, in order, as GORM's sqlserver dialector renders them.
-- Reviewed SQL for a dialect that is not run live here. Regenerate with `make golden`; see golden_test.go.
BEGIN
SELECT SYSUTCDATETIME()
SELECT * FROM "user_tasks" WHERE tenant_id = @p1 AND id = @p2 ORDER BY "id" OFFSET 0 ROW FETCH NEXT 1 ROWS ONLY
--   binds: string x2
INSERT INTO "user_task_attachments" ("id","tenant_id","task_id","file_name_enc","content_type","size_bytes","sha256","chunks","uploader_provider","uploader_type","uploader_id","uploader_display","started_at","created_at") VALUES (@p1,@p2,@p3,@p4,@p5,@p6,@p7,@p8,@p9,@p10,@p11,@p12,@p13,@p14);
--   binds: string x4, NULL, int64, NULL, int, string x4, time.Time, NULL
COMMIT
