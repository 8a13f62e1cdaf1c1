-- Scenario "deadline-policies": the statements the store sends, in order, as GORM's sqlserver dialector renders them.
-- Reviewed SQL for a dialect that is not run live here. Regenerate with `make golden`; see golden_test.go.
BEGIN
SELECT * FROM "user_task_deadline_policies" WHERE (tenant_id = @p1 AND deadlines_json IS NOT NULL) AND workflow_definition_id > @p2 ORDER BY workflow_definition_id OFFSET 0 ROW FETCH NEXT 50 ROWS ONLY
--   binds: string x2
ROLLBACK
