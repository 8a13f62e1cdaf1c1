-- Scenario "delete-deadline-policy": the statements the store sends, in order, as GORM's oracle dialector renders them.
-- Reviewed SQL for a dialect that is not run live here. Regenerate with `make golden`; see golden_test.go.
BEGIN
SELECT SYS_EXTRACT_UTC(SYSTIMESTAMP) FROM DUAL
SELECT * FROM user_task_deadline_policies WHERE tenant_id = :1 AND workflow_definition_id = :2 ORDER BY (SELECT NULL FROM DUAL) FETCH NEXT :3 ROWS ONLY
--   binds: string x2, int
UPDATE user_task_deadline_policies SET changed_by_display=:1,changed_by_id=:2,changed_by_provider=:3,changed_by_type=:4,deadlines_json=:5,revision=:6,updated_at=:7 WHERE (tenant_id = :8 AND workflow_definition_id = :9) AND revision = :10
--   binds: string x4, NULL, int, time.Time, string x2, int
INSERT INTO user_task_policy_audit (tenant_id,workflow_definition_id,revision,change_type,deadlines_json,actor_provider,actor_type,actor_id,actor_display,changed_at) VALUES (:1,:2,:3,:4,:5,:6,:7,:8,:9,:10)
--   binds: string x2, int, string, NULL, string x4, time.Time
COMMIT
