-- Scenario "put-deadline-policy-update": the statements the store sends, in order, as GORM's sqlserver dialector renders them.
-- Reviewed SQL for a dialect that is not run live here. Regenerate with `make golden`; see golden_test.go.
BEGIN
SELECT SYSUTCDATETIME()
SELECT * FROM "user_task_deadline_policies" WHERE tenant_id = @p1 AND workflow_definition_id = @p2 ORDER BY (SELECT NULL) OFFSET 0 ROW FETCH NEXT 1 ROWS ONLY
--   binds: string x2
UPDATE "user_task_deadline_policies" SET "changed_by_display"=@p1,"changed_by_id"=@p2,"changed_by_provider"=@p3,"changed_by_type"=@p4,"deadlines_json"=@p5,"revision"=@p6,"updated_at"=@p7 WHERE (tenant_id = @p8 AND workflow_definition_id = @p9) AND revision = @p10
--   binds: string x5, int, time.Time, string x2, int
INSERT INTO "user_task_policy_audit" ("tenant_id","workflow_definition_id","revision","change_type","deadlines_json","actor_provider","actor_type","actor_id","actor_display","changed_at") VALUES (@p1,@p2,@p3,@p4,@p5,@p6,@p7,@p8,@p9,@p10);
--   binds: string x2, int, string x6, time.Time
COMMIT
