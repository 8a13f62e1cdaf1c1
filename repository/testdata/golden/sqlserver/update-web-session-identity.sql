-- Scenario "update-web-session-identity": the statements the store sends, in order, as GORM's sqlserver dialector renders them.
-- Reviewed SQL for a dialect that is not run live here. Regenerate with `make golden`; see golden_test.go.
BEGIN
SELECT SYSUTCDATETIME()
UPDATE "user_task_web_sessions" SET "display_name"=@p1,"groups_json"=@p2,"is_manager"=@p3,"permissions_json"=@p4,"refresh_token_enc"=@p5,"refreshed_at"=@p6 WHERE (id_hash = @p7 AND expires_at > @p8 AND idle_expires_at > @p9) AND (tenant_id = @p10 AND subject_provider = @p11 AND subject_id = @p12)
--   binds: string x2, bool, string x2, time.Time, string, time.Time x2, string x3
COMMIT
