-- Scenario "mark-notifications-read-all": the statements the store sends, in order, as GORM's oracle dialector renders them.
-- Reviewed SQL for a dialect that is not run live here. Regenerate with `make golden`; see golden_test.go.
BEGIN
SELECT SYS_EXTRACT_UTC(SYSTIMESTAMP) FROM DUAL
UPDATE user_task_notifications SET read_at=:1,updated_at=:2 WHERE (tenant_id = :3 AND recipient_provider = :4 AND recipient_type = :5 AND recipient_id = :6 AND visible_at IS NOT NULL) AND read_at IS NULL
--   binds: time.Time x2, string x4
COMMIT
