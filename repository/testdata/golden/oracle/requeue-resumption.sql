-- Scenario "requeue-resumption": the statements the store sends, in order, as GORM's oracle dialector renders them.
-- Reviewed SQL for a dialect that is not run live here. Regenerate with `make golden`; see golden_test.go.
BEGIN
SELECT SYS_EXTRACT_UTC(SYSTIMESTAMP) FROM DUAL
UPDATE user_task_resumptions SET available_at=:1,delivered_at=:2,lease_expires_at=:3,lease_owner=:4,lease_token=:5,state=:6,updated_at=:7 WHERE (tenant_id = :8 AND task_id = :9 AND operation_id = :10 AND state IN (:11,:12)) AND (EXISTS (SELECT 1 FROM user_tasks t WHERE t.id = user_task_resumptions.task_id AND t.tenant_id = :13 AND t.status IN (:14,:15,:16)))
--   binds: time.Time, NULL x4, string, time.Time, string x9
COMMIT
