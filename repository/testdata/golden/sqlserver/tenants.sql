-- Scenario "tenants": the statements the store sends, in order, as GORM's sqlserver dialector renders them.
-- Reviewed SQL for a dialect that is not run live here. Regenerate with `make golden`; see golden_test.go.
BEGIN
SELECT "tenant_id" FROM "user_task_tenants" ORDER BY tenant_id
ROLLBACK
