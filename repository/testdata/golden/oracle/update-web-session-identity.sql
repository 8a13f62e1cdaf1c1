-- Scenario "update-web-session-identity": the statements the store sends, in order, as GORM's oracle dialector renders them.
-- Reviewed SQL for a dialect that is not run live here. Regenerate with `make golden`; see golden_test.go.
BEGIN
SELECT SYS_EXTRACT_UTC(SYSTIMESTAMP) FROM DUAL
UPDATE user_task_web_sessions SET display_name=:1,groups_json=:2,id_token_enc=:3,is_manager=:4,permissions_json=:5,refresh_token_enc=:6,refreshed_at=:7 WHERE (id_hash = :8 AND expires_at > :9 AND idle_expires_at > :10) AND (tenant_id = :11 AND subject_provider = :12 AND subject_id = :13)
--   binds: string x3, int, string x2, time.Time, string, time.Time x2, string x3
COMMIT
