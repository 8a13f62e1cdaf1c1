-- Scenario "put-absence-new": the statements the store sends, in order, as GORM's sqlserver dialector renders them.
-- Reviewed SQL for a dialect that is not run live here. Regenerate with `make golden`; see golden_test.go.
BEGIN
SELECT SYSUTCDATETIME()
SELECT * FROM "user_task_absences" WHERE tenant_id = @p1 AND user_provider = @p2 AND user_type = @p3 AND user_id = @p4 ORDER BY (SELECT NULL) OFFSET 0 ROW FETCH NEXT 1 ROWS ONLY
--   binds: string x4
INSERT INTO "user_task_absences" ("tenant_id","user_provider","user_type","user_id","starts_at","ends_at","substitute_provider","substitute_type","substitute_id","substitute_display","created_at","updated_at") VALUES (@p1,@p2,@p3,@p4,@p5,@p6,@p7,@p8,@p9,@p10,@p11,@p12);
--   binds: string x4, time.Time x2, string x4, time.Time x2
COMMIT
