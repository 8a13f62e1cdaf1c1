-- Scenario "delete-attachment": the statements the store sends, in order, as GORM's oracle dialector renders them.
-- Reviewed SQL for a dialect that is not run live here. Regenerate with `make golden`; see golden_test.go.
BEGIN
SELECT SYS_EXTRACT_UTC(SYSTIMESTAMP) FROM DUAL
UPDATE user_tasks SET last_event_seq=last_event_seq + 1 WHERE tenant_id = :1 AND id = :2
--   binds: string x2
SELECT * FROM user_tasks WHERE tenant_id = :1 AND id = :2 ORDER BY id  FETCH NEXT :3 ROWS ONLY
--   binds: string x2, int
SELECT * FROM user_task_attachments WHERE (tenant_id = :1 AND task_id = :2 AND created_at IS NOT NULL) AND id = :3 ORDER BY id  FETCH NEXT :4 ROWS ONLY
--   binds: string x3, int
DELETE FROM user_task_attachment_chunks WHERE attachment_id = :1
--   binds: string
DELETE FROM user_task_attachments WHERE tenant_id = :1 AND task_id = :2 AND id = :3
--   binds: string x3
INSERT INTO user_task_events (id,tenant_id,task_id,seq,revision,event_type,occurred_at,operation_id,actor_provider,actor_type,actor_id,actor_display,reason,metadata) VALUES (:1,:2,:3,:4,:5,:6,:7,:8,:9,:10,:11,:12,:13,:14)
--   binds: string x3, int x2, string, time.Time, NULL, string x4, NULL, string
COMMIT
