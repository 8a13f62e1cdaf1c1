-- Scenario "update-web-session-identity-ended": the statements the store sends, in order, as GORM's sqlserver dialector renders them.
-- Reviewed SQL for a dialect that is not run live here. Regenerate with `make golden`; see golden_test.go.
BEGIN
SELECT SYSUTCDATETIME()
UPDATE "user_task_web_sessions" SET "display_name"=@p1,"groups_json"=@p2,"is_manager"=@p3,"permissions_json"=@p4,"refreshed_at"=@p5 WHERE (id_hash = @p6 AND expires_at > @p7 AND idle_expires_at > @p8) AND (tenant_id = @p9 AND subject_provider = @p10 AND subject_id = @p11)
--   binds: string x2, bool, string, time.Time, string, time.Time x2, string x3
ROLLBACK
