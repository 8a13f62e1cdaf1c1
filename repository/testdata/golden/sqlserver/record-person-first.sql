-- Scenario "record-person-first": the statements the store sends, in order, as GORM's sqlserver dialector renders them.
-- Reviewed SQL for a dialect that is not run live here. Regenerate with `make golden`; see golden_test.go.
BEGIN
SELECT SYSUTCDATETIME()
SELECT * FROM "user_task_people" WHERE tenant_id = @p1 AND provider = @p2 AND user_id = @p3 ORDER BY (SELECT NULL) OFFSET 0 ROW FETCH NEXT 1 ROWS ONLY
--   binds: string x3
INSERT INTO "user_task_people" ("tenant_id","provider","user_id","display_name","email","language","time_zone","manager","seen_at","email_prefs","digest","created_at","updated_at") VALUES (@p1,@p2,@p3,@p4,@p5,@p6,@p7,@p8,@p9,@p10,@p11,@p12,@p13);
--   binds: string x7, bool, time.Time, NULL x2, time.Time x2
COMMIT
