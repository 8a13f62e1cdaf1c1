-- Scenario "acquire-lease-takeover": the statements the store sends, in order, as GORM's oracle dialector renders them.
-- Reviewed SQL for a dialect that is not run live here. Regenerate with `make golden`; see golden_test.go.
BEGIN
SELECT SYS_EXTRACT_UTC(SYSTIMESTAMP) FROM DUAL
SELECT * FROM user_task_leases WHERE lease_name = :1 ORDER BY lease_name  FETCH NEXT :2 ROWS ONLY
--   binds: string, int
UPDATE user_task_leases SET lease_expires_at=:1,lease_generation=:2,lease_owner=:3,lease_token=:4,updated_at=:5 WHERE lease_name = :6 AND lease_generation = :7
--   binds: time.Time, int64, string x2, time.Time, string, int64
COMMIT
