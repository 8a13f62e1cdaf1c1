-- Scenario "release-resumption": the statements the store sends, in order, as GORM's oracle dialector renders them.
-- Reviewed SQL for a dialect that is not run live here. Regenerate with `make golden`; see golden_test.go.
BEGIN
SELECT SYS_EXTRACT_UTC(SYSTIMESTAMP) FROM DUAL
UPDATE user_task_resumptions SET lease_expires_at=:1,lease_owner=:2,lease_token=:3,updated_at=:4 WHERE id = :5 AND state = :6 AND lease_token = :7 AND lease_generation = :8 AND lease_expires_at > :9
--   binds: NULL x3, time.Time, string x3, int64, time.Time
COMMIT
