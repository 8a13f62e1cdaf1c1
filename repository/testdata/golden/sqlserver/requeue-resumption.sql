-- Scenario "requeue-resumption": the statements the store sends, in order, as GORM's sqlserver dialector renders them.
-- Reviewed SQL for a dialect that is not run live here. Regenerate with `make golden`; see golden_test.go.
BEGIN
SELECT SYSUTCDATETIME()
UPDATE "user_task_resumptions" SET "available_at"=@p1,"delivered_at"=@p2,"lease_expires_at"=@p3,"lease_owner"=@p4,"lease_token"=@p5,"state"=@p6,"updated_at"=@p7 WHERE (tenant_id = @p8 AND task_id = @p9 AND operation_id = @p10 AND state IN (@p11,@p12)) AND (EXISTS (SELECT 1 FROM user_tasks t WHERE t.id = user_task_resumptions.task_id AND t.tenant_id = @p13 AND t.status IN (@p14,@p15,@p16)))
--   binds: time.Time, NULL x4, string, time.Time, string x9
COMMIT
