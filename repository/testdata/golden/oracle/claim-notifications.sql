-- Scenario "claim-notifications": the statements the store sends, in order, as GORM's oracle dialector renders them.
-- Reviewed SQL for a dialect that is not run live here. Regenerate with `make golden`; see golden_test.go.
BEGIN
SELECT SYS_EXTRACT_UTC(SYSTIMESTAMP) FROM DUAL
SELECT id FROM user_task_notifications WHERE state = :1 AND available_at <= :2 AND (lease_expires_at IS NULL OR lease_expires_at <= :3) ORDER BY available_at, id  FETCH NEXT :4 ROWS ONLY
--   binds: string, time.Time x2, int
UPDATE user_task_notifications SET lease_expires_at=:1,lease_generation=lease_generation + 1,lease_owner=:2,lease_token=:3,updated_at=:4 WHERE id IN (:5) AND (state = :6 AND available_at <= :7 AND (lease_expires_at IS NULL OR lease_expires_at <= :8))
--   binds: time.Time, string x2, time.Time, string x2, time.Time x2
SELECT * FROM user_task_notifications WHERE id IN (:1) AND lease_token = :2 ORDER BY available_at, id
--   binds: string x2
COMMIT
