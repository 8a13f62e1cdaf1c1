-- Scenario "settle-resumption": the statements the store sends, in order, as GORM's oracle dialector renders them.
-- Reviewed SQL for a dialect that is not run live here. Regenerate with `make golden`; see golden_test.go.
BEGIN
SELECT SYS_EXTRACT_UTC(SYSTIMESTAMP) FROM DUAL
UPDATE user_task_resumptions SET lease_expires_at=:1,lease_owner=:2,lease_token=:3,state=:4,updated_at=:5 WHERE id = :6 AND state = :7 AND lease_token = :8 AND lease_generation = :9 AND lease_expires_at > :10
--   binds: NULL x3, string, time.Time, string x3, int64, time.Time
COMMIT
