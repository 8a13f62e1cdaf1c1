-- Scenario "digests-waiting": the statements the store sends, in order, as GORM's oracle dialector renders them.
-- Reviewed SQL for a dialect that is not run live here. Regenerate with `make golden`; see golden_test.go.
BEGIN
SELECT tenant_id, recipient_provider, recipient_type, recipient_id, MIN(occurred_at) AS oldest FROM user_task_notifications WHERE email_state = :1 GROUP BY tenant_id, recipient_provider, recipient_type, recipient_id ORDER BY oldest, tenant_id, recipient_provider, recipient_type, recipient_id  FETCH NEXT :2 ROWS ONLY
--   binds: string, int
ROLLBACK
