-- Scenario "put-deadline-policy-new": the statements the store sends, in order, as GORM's sqlserver dialector renders them.
-- Reviewed SQL for a dialect that is not run live here. Regenerate with `make golden`; see golden_test.go.
BEGIN
SELECT SYSUTCDATETIME()
SELECT * FROM "user_task_deadline_policies" WHERE tenant_id = @p1 AND workflow_definition_id = @p2 ORDER BY (SELECT NULL) OFFSET 0 ROW FETCH NEXT 1 ROWS ONLY
--   binds: string x2
INSERT INTO "user_task_deadline_policies" ("tenant_id","workflow_definition_id","deadlines_json","revision","changed_by_provider","changed_by_type","changed_by_id","changed_by_display","updated_at") VALUES (@p1,@p2,@p3,@p4,@p5,@p6,@p7,@p8,@p9);
--   binds: string x3, int, string x4, time.Time
INSERT INTO "user_task_policy_audit" ("tenant_id","workflow_definition_id","revision","change_type","deadlines_json","actor_provider","actor_type","actor_id","actor_display","changed_at") VALUES (@p1,@p2,@p3,@p4,@p5,@p6,@p7,@p8,@p9,@p10);
--   binds: string x2, int, string x6, time.Time
COMMIT
