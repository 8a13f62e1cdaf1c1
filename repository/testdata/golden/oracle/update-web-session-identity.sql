-- Scenario "update-web-session-identity": the statements the store sends, in order, as GORM's oracle dialector renders them.
-- Reviewed SQL for a dialect that is not run live here. Regenerate with `make golden`; see golden_test.go.
BEGIN
SELECT SYS_EXTRACT_UTC(SYSTIMESTAMP) FROM DUAL
UPDATE user_task_web_sessions SET display_name=:1,groups_json=:2,is_manager=:3,permissions_json=:4,refresh_token_enc=:5,refreshed_at=:6 WHERE (id_hash = :7 AND expires_at > :8 AND idle_expires_at > :9) AND (tenant_id = :10 AND subject_provider = :11 AND subject_id = :12)
--   binds: string x2, int, string x2, time.Time, string, time.Time x2, string x3
COMMIT
