-- Scenario "update-web-session-identity-ended": the statements the store sends, in order, as GORM's oracle dialector renders them.
-- Reviewed SQL for a dialect that is not run live here. Regenerate with `make golden`; see golden_test.go.
BEGIN
SELECT SYS_EXTRACT_UTC(SYSTIMESTAMP) FROM DUAL
UPDATE user_task_web_sessions SET display_name=:1,groups_json=:2,is_manager=:3,permissions_json=:4,refreshed_at=:5 WHERE (id_hash = :6 AND expires_at > :7 AND idle_expires_at > :8) AND (tenant_id = :9 AND subject_provider = :10 AND subject_id = :11)
--   binds: string x2, int, string, time.Time, string, time.Time x2, string x3
ROLLBACK
