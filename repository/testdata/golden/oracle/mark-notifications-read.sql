-- Scenario "mark-notifications-read": the statements the store sends, in order, as GORM's oracle dialector renders them.
-- Reviewed SQL for a dialect that is not run live here. Regenerate with `make golden`; see golden_test.go.
BEGIN
SELECT SYS_EXTRACT_UTC(SYSTIMESTAMP) FROM DUAL
UPDATE user_task_notifications SET read_at=:1,updated_at=:2 WHERE id IN (:3,:4) AND (tenant_id = :5 AND recipient_provider = :6 AND recipient_type = :7 AND recipient_id = :8 AND visible_at IS NOT NULL) AND read_at IS NULL
--   binds: time.Time x2, string x6
COMMIT
