-- Scenario "put-absence-replace": the statements the store sends, in order, as GORM's sqlserver dialector renders them.
-- Reviewed SQL for a dialect that is not run live here. Regenerate with `make golden`; see golden_test.go.
BEGIN
SELECT SYSUTCDATETIME()
SELECT * FROM "user_task_absences" WHERE tenant_id = @p1 AND user_provider = @p2 AND user_type = @p3 AND user_id = @p4 ORDER BY (SELECT NULL) OFFSET 0 ROW FETCH NEXT 1 ROWS ONLY
--   binds: string x4
UPDATE "user_task_absences" SET "ends_at"=@p1,"starts_at"=@p2,"substitute_display"=@p3,"substitute_id"=@p4,"substitute_provider"=@p5,"substitute_type"=@p6,"updated_at"=@p7 WHERE tenant_id = @p8 AND user_provider = @p9 AND user_type = @p10 AND user_id = @p11
--   binds: time.Time x2, string x4, time.Time, string x4
COMMIT
