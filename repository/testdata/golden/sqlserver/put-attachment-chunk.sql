-- Scenario "put-attachment-chunk": the statements the store sends, in order, as GORM's sqlserver dialector renders them.
-- Reviewed SQL for a dialect that is not run live here. Regenerate with `make golden`; see golden_test.go.
BEGIN
SELECT SYSUTCDATETIME()
SELECT * FROM "user_task_attachments" WHERE tenant_id = @p1 AND task_id = @p2 AND id = @p3 AND created_at IS NULL ORDER BY "id" OFFSET 0 ROW FETCH NEXT 1 ROWS ONLY
--   binds: string x3
INSERT INTO "user_task_attachment_chunks" ("id","tenant_id","task_id","attachment_id","seq","plain_size","chunk_enc") VALUES (@p1,@p2,@p3,@p4,@p5,@p6,@p7);
--   binds: string x4, int x2, []uint8
COMMIT
