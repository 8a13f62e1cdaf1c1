-- Scenario "retry-resumption": the statements the store sends, in order, as GORM's oracle dialector renders them.
-- Reviewed SQL for a dialect that is not run live here. Regenerate with `make golden`; see golden_test.go.
BEGIN
SELECT SYS_EXTRACT_UTC(SYSTIMESTAMP) FROM DUAL
UPDATE user_task_resumptions SET attempts=:1,available_at=:2,last_error=:3,lease_expires_at=:4,lease_owner=:5,lease_token=:6,updated_at=:7 WHERE id = :8 AND state = :9 AND lease_token = :10 AND lease_generation = :11 AND lease_expires_at > :12
--   binds: int, time.Time, string, NULL x3, time.Time, string x3, int64, time.Time
COMMIT
