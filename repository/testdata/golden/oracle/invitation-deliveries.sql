-- Scenario "invitation-deliveries": the statements the store sends, in order, as GORM's oracle dialector renders them.
-- Reviewed SQL for a dialect that is not run live here. Regenerate with `make golden`; see golden_test.go.
BEGIN
SELECT user_task_deliveries.id,user_task_deliveries.tenant_id,user_task_deliveries.task_id,user_task_deliveries.invitation_id,user_task_deliveries.dispatcher,user_task_deliveries.metadata,user_task_deliveries.attempts,user_task_deliveries.state,user_task_deliveries.available_at,user_task_deliveries.expires_at,user_task_deliveries.last_error,user_task_deliveries.idempotency_key,user_task_deliveries.lease_owner,user_task_deliveries.lease_token,user_task_deliveries.lease_generation,user_task_deliveries.lease_expires_at,user_task_deliveries.created_at,user_task_deliveries.updated_at FROM user_task_deliveries WHERE tenant_id = :1 AND task_id = :2 ORDER BY created_at, id
--   binds: string x2
ROLLBACK
