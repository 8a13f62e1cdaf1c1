-- Scenario "verify-invitation-last-attempt": the statements the store sends, in order, as GORM's sqlserver dialector renders them.
-- Reviewed SQL for a dialect that is not run live here. Regenerate with `make golden`; see golden_test.go.
BEGIN
SELECT SYSUTCDATETIME()
SELECT * FROM "user_task_invitations" WHERE token_hash = @p1 ORDER BY "id" OFFSET 0 ROW FETCH NEXT 1 ROWS ONLY
--   binds: string
UPDATE "user_tasks" SET "revision"=revision WHERE tenant_id = @p1 AND id = @p2
--   binds: string x2
UPDATE "user_task_invitations" SET "code_attempts"=code_attempts WHERE tenant_id = @p1 AND id = @p2
--   binds: string x2
SELECT * FROM "user_task_invitations" WHERE tenant_id = @p1 AND id = @p2 ORDER BY "id" OFFSET 0 ROW FETCH NEXT 1 ROWS ONLY
--   binds: string x2
UPDATE "user_task_invitations" SET "code_attempts"=@p1,"revoked_at"=@p2,"status"=@p3,"updated_at"=@p4 WHERE tenant_id = @p5 AND id = @p6 AND code_attempts = @p7
--   binds: int, time.Time, string, time.Time, string x2, int
UPDATE "user_task_deliveries" SET "lease_expires_at"=@p1,"lease_owner"=@p2,"lease_token"=@p3,"state"=@p4,"updated_at"=@p5 WHERE tenant_id = @p6 AND invitation_id = @p7 AND state = @p8
--   binds: NULL x3, string, time.Time, string x3
UPDATE "user_tasks" SET "last_event_seq"=last_event_seq + 1 WHERE tenant_id = @p1 AND id = @p2
--   binds: string x2
SELECT * FROM "user_tasks" WHERE tenant_id = @p1 AND id = @p2 ORDER BY "id" OFFSET 0 ROW FETCH NEXT 1 ROWS ONLY
--   binds: string x2
INSERT INTO "user_task_events" ("id","tenant_id","task_id","seq","revision","event_type","occurred_at","operation_id","actor_provider","actor_type","actor_id","actor_display","reason","metadata") VALUES (@p1,@p2,@p3,@p4,@p5,@p6,@p7,@p8,@p9,@p10,@p11,@p12,@p13,@p14);
--   binds: string x3, int x2, string, time.Time, NULL x6, string
COMMIT
