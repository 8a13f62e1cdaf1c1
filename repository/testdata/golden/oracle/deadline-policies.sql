-- Scenario "deadline-policies": the statements the store sends, in order, as GORM's oracle dialector renders them.
-- Reviewed SQL for a dialect that is not run live here. Regenerate with `make golden`; see golden_test.go.
BEGIN
SELECT * FROM user_task_deadline_policies WHERE (tenant_id = :1 AND deadlines_json IS NOT NULL) AND workflow_definition_id > :2 ORDER BY workflow_definition_id  FETCH NEXT :3 ROWS ONLY
--   binds: string x2, int
ROLLBACK
