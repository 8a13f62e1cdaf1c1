-- Scenario "substituted-by": the statements the store sends, in order, as GORM's sqlserver dialector renders them.
-- Reviewed SQL for a dialect that is not run live here. Regenerate with `make golden`; see golden_test.go.
BEGIN
SELECT SYSUTCDATETIME()
SELECT * FROM "user_task_absences" WHERE tenant_id = @p1 AND substitute_provider = @p2 AND substitute_type = @p3 AND substitute_id = @p4 AND ends_at > @p5 ORDER BY user_provider, user_id
--   binds: string x4, time.Time
ROLLBACK
