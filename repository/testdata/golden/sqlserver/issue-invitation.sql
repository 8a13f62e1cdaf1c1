-- Scenario "issue-invitation": the statements the store sends, in order, as GORM's sqlserver dialector renders them.
-- Reviewed SQL for a dialect that is not run live here. Regenerate with `make golden`; see golden_test.go.
BEGIN
SELECT SYSUTCDATETIME()
UPDATE "user_tasks" SET "last_event_seq"=last_event_seq + 1 WHERE tenant_id = @p1 AND id = @p2
--   binds: string x2
SELECT * FROM "user_tasks" WHERE tenant_id = @p1 AND id = @p2 ORDER BY "id" OFFSET 0 ROW FETCH NEXT 1 ROWS ONLY
--   binds: string x2
SELECT count(*) FROM "user_task_invitations" WHERE tenant_id = @p1 AND task_id = @p2
--   binds: string x2
INSERT INTO "user_task_invitations" ("id","tenant_id","task_id","sibling_group_id","verifier_name","allowed_actions","bearer_only","recipient_enc","token_hash","code_hash","code_attempts","status","issued_by_provider","issued_by_type","issued_by_id","issued_at","expires_at","dispatched_at","verified_at","consumed_at","revoked_at","updated_at") VALUES (@p1,@p2,@p3,@p4,@p5,@p6,@p7,@p8,@p9,@p10,@p11,@p12,@p13,@p14,@p15,@p16,@p17,@p18,@p19,@p20,@p21,@p22);
--   binds: string x3, NULL, string x2, bool, string x3, int, string x4, time.Time x2, NULL x4, time.Time
INSERT INTO "user_task_deliveries" ("id","tenant_id","task_id","invitation_id","dispatcher","payload_enc","metadata","attempts","state","available_at","expires_at","last_error","idempotency_key","lease_owner","lease_token","lease_generation","lease_expires_at","created_at","updated_at") VALUES (@p1,@p2,@p3,@p4,@p5,@p6,@p7,@p8,@p9,@p10,@p11,@p12,@p13,@p14,@p15,@p16,@p17,@p18,@p19);
--   binds: string x7, int, string, time.Time x2, NULL, string, NULL x2, int64, NULL, time.Time x2
INSERT INTO "user_task_events" ("id","tenant_id","task_id","seq","revision","event_type","occurred_at","operation_id","actor_provider","actor_type","actor_id","actor_display","reason","metadata") VALUES (@p1,@p2,@p3,@p4,@p5,@p6,@p7,@p8,@p9,@p10,@p11,@p12,@p13,@p14);
--   binds: string x3, int x2, string, time.Time, NULL, string x4, NULL x2
COMMIT
