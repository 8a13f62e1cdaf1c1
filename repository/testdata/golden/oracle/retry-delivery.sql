-- Scenario "retry-delivery": the statements the store sends, in order, as GORM's oracle dialector renders them.
-- Reviewed SQL for a dialect that is not run live here. Regenerate with `make golden`; see golden_test.go.
BEGIN
SELECT SYS_EXTRACT_UTC(SYSTIMESTAMP) FROM DUAL
UPDATE user_task_deliveries SET attempts=:1,available_at=:2,last_error=:3,lease_expires_at=:4,lease_owner=:5,lease_token=:6,state=:7,updated_at=:8 WHERE id = :9 AND state = :10 AND lease_token = :11 AND lease_generation = :12 AND lease_expires_at > :13
--   binds: int, time.Time, string, NULL x3, string, time.Time, string x3, int64, time.Time
COMMIT
