-- Scenario "record-person-again": the statements the store sends, in order, as GORM's sqlserver dialector renders them.
-- Reviewed SQL for a dialect that is not run live here. Regenerate with `make golden`; see golden_test.go.
BEGIN
SELECT SYSUTCDATETIME()
SELECT * FROM "user_task_people" WHERE tenant_id = @p1 AND provider = @p2 AND user_id = @p3 ORDER BY (SELECT NULL) OFFSET 0 ROW FETCH NEXT 1 ROWS ONLY
--   binds: string x3
UPDATE "user_task_people" SET "display_name"=@p1,"email"=@p2,"language"=@p3,"manager"=@p4,"seen_at"=@p5,"time_zone"=@p6,"updated_at"=@p7 WHERE tenant_id = @p8 AND provider = @p9 AND user_id = @p10
--   binds: string, NULL x2, bool, time.Time, NULL, time.Time, string x3
COMMIT
