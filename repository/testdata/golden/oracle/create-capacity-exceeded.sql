-- Scenario "create-capacity-exceeded": the statements the store sends, in order, as GORM's oracle dialector renders them.
-- Reviewed SQL for a dialect that is not run live here. Regenerate with `make golden`; see golden_test.go.
BEGIN
SELECT SYS_EXTRACT_UTC(SYSTIMESTAMP) FROM DUAL
SELECT count(*) FROM user_task_tenants WHERE tenant_id = :1
--   binds: string
COMMIT
BEGIN
SELECT SYS_EXTRACT_UTC(SYSTIMESTAMP) FROM DUAL
SELECT id FROM user_tasks WHERE tenant_id = :1 AND (materialization_key = :2 OR bookmark_id = :3) ORDER BY id  FETCH NEXT :4 ROWS ONLY
--   binds: string x3, int
UPDATE user_task_tenants SET open_tasks=open_tasks + 1,updated_at=:1 WHERE tenant_id = :2 AND open_tasks < :3
--   binds: time.Time, string, int
SELECT count(*) FROM user_task_tenants WHERE tenant_id = :1
--   binds: string
ROLLBACK
