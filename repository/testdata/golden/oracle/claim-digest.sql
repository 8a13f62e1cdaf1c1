-- Scenario "claim-digest": the statements the store sends, in order, as GORM's oracle dialector renders them.
-- Reviewed SQL for a dialect that is not run live here. Regenerate with `make golden`; see golden_test.go.
BEGIN
SELECT SYS_EXTRACT_UTC(SYSTIMESTAMP) FROM DUAL
SELECT id FROM user_task_notifications WHERE (email_state = :1 AND tenant_id = :2 AND recipient_provider = :3 AND recipient_type = :4 AND recipient_id = :5) AND (occurred_at < :6 AND (lease_expires_at IS NULL OR lease_expires_at <= :7)) ORDER BY occurred_at, id  FETCH NEXT :8 ROWS ONLY
--   binds: string x5, time.Time x2, int
UPDATE user_task_notifications SET lease_expires_at=:1,lease_generation=lease_generation + 1,lease_owner=:2,lease_token=:3,updated_at=:4 WHERE id IN (:5) AND (email_state = :6 AND tenant_id = :7 AND recipient_provider = :8 AND recipient_type = :9 AND recipient_id = :10) AND (occurred_at < :11 AND (lease_expires_at IS NULL OR lease_expires_at <= :12))
--   binds: time.Time, string x2, time.Time, string x6, time.Time x2
SELECT * FROM user_task_notifications WHERE id IN (:1) AND lease_token = :2 ORDER BY occurred_at, id
--   binds: string x2
COMMIT
