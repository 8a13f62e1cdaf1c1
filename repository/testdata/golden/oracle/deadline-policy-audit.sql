-- Scenario "deadline-policy-audit": the statements the store sends, in order, as GORM's oracle dialector renders them.
-- Reviewed SQL for a dialect that is not run live here. Regenerate with `make golden`; see golden_test.go.
BEGIN
SELECT * FROM user_task_policy_audit WHERE tenant_id = :1 AND workflow_definition_id = :2 ORDER BY revision DESC  FETCH NEXT :3 ROWS ONLY
--   binds: string x2, int
ROLLBACK
