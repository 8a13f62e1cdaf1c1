package stress

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"sync/atomic"

	"usertasks/models"
	"usertasks/storekit"
	"usertasks/workflow"
)

// The projection's full shape: what the store sends for a projection (workflow.Projector over
// Store.Create, copied from Config.OnSQL), written by hand. Outside a transaction the projector
// looks the bookmark up by materialization key (a repeat answers the task, reading its
// assignment) and then by bookmark id; the creating transaction reads the clock, checks that
// neither exists, inserts the task, its tags, its candidate, the created event and the
// projection's operation, counts the day's creation in the task's rollup stripe and raises the
// tenant's open-task counter stripe. A concurrent twin that passed the check meets the unique
// key and answers as a repeat, as the store's does.

// createTaskColumns are the columns the store inserts of a new task, in its order.
const createTaskColumns = "`id`,`tenant_id`,`workflow_definition_id`,`workflow_definition_name`,`workflow_definition_version`," +
	"`workflow_instance_id`,`workflow_instance_reference`,`activity_instance_id`,`bookmark_id`,`materialization_key`,`title`,`summary`," +
	"`reference`,`task_type`,`tags`,`search_text`,`requester_provider`,`requester_type`,`requester_id`,`requester_display`,`priority`," +
	"`due_at`,`is_overdue`,`status`,`created_at`,`updated_at`,`assigned_at`,`completed_at`,`transitioned_at`,`assignee_provider`," +
	"`assignee_type`,`assignee_id`,`assignee_display`,`membership_mode`,`allow_exclusion_override`,`candidate_users`,`candidate_groups`," +
	"`actions_json`,`timeout_enabled`,`cancellation_enabled`,`health_severity`,`health_code`,`health_message`,`instructions_enc`," +
	"`task_data_enc`,`form_enc`,`invitation_defs_enc`,`completion_data_enc`,`completion_action_key`,`completed_by_provider`," +
	"`completed_by_type`,`completed_by_id`,`completed_by_display`,`revision`,`last_event_seq`"

// project delivers the bookmark req of a pool task (offered to one group, as the stress
// bookmarks are) to tenant with the store's statements: Applied when it created the task,
// Repeated when the task was there.
func (b *fullBaseline) project(ctx context.Context, tenant string, req workflow.ProjectionRequest) (Outcome, error) {
	link := req.BookmarkLink
	key := models.MaterializationKey(tenant, link.WorkflowInstanceID, link.ActivityInstanceID)
	return withRawRetry(func() (Outcome, error) { return b.projectOnce(ctx, tenant, key, req) })
}

func (b *fullBaseline) projectOnce(ctx context.Context, tenant, key string, req workflow.ProjectionRequest) (Outcome, error) {
	link, def := req.BookmarkLink, req.Task
	found, err := rowsOf(b.db.QueryContext(ctx, b.q("SELECT * FROM `user_tasks` WHERE tenant_id = ? AND materialization_key = ? LIMIT 1"), tenant, key))
	if err != nil {
		return Failed, err
	}
	if len(found) > 0 {
		id := asString(found[0]["id"])
		if _, err := rowsOf(b.db.QueryContext(ctx, b.q(assignmentSQL), id, tenant, id, tenant)); err != nil {
			return Failed, err
		}
		return Repeated, nil
	}
	if _, err := rowsOf(b.db.QueryContext(ctx, b.q("SELECT * FROM `user_tasks` WHERE tenant_id = ? AND bookmark_id = ? LIMIT 1"), tenant, link.BookmarkID)); err != nil {
		return Failed, err
	}

	tx, err := b.db.BeginTx(ctx, nil)
	if err != nil {
		return Failed, err
	}
	defer tx.Rollback() //nolint:errcheck // after Commit it does nothing
	now, err := b.now(ctx, tx)
	if err != nil {
		return Failed, err
	}
	var existing string
	switch err := tx.QueryRowContext(ctx, b.q("SELECT `id` FROM `user_tasks` WHERE tenant_id = ? AND (materialization_key = ? OR bookmark_id = ?) LIMIT 1"),
		tenant, key, link.BookmarkID).Scan(&existing); {
	case err == nil:
		return Repeated, nil
	case !errors.Is(err, sql.ErrNoRows):
		return Failed, retryable(err)
	}
	task := models.Task{ID: models.NewID(), Tenant: tenant, Title: def.Title, Reference: def.Reference, Tags: def.Tags,
		Workflow: models.WorkflowLink{DefinitionID: link.WorkflowDefinitionID, DefinitionName: link.WorkflowDefinitionName,
			InstanceID: link.WorkflowInstanceID, ActivityInstanceID: link.ActivityInstanceID, BookmarkID: link.BookmarkID}}
	tags, err := json.Marshal(def.Tags)
	if err != nil {
		return Failed, err
	}
	actions, err := json.Marshal(models.DefaultActions())
	if err != nil {
		return Failed, err
	}
	priority := models.DefaultPriority
	if def.Priority != nil {
		priority = *def.Priority
	}
	status := string(models.StatusAvailable)
	if _, err := tx.ExecContext(ctx, b.q("INSERT INTO `user_tasks` ("+createTaskColumns+") VALUES (?,?,?,?,NULL,?,NULL,?,?,?,?,NULL,?,NULL,?,?,"+
		"NULL,NULL,NULL,NULL,?,NULL,?,?,?,?,NULL,NULL,NULL,NULL,NULL,NULL,NULL,?,?,0,1,?,?,?,NULL,NULL,NULL,NULL,NULL,NULL,NULL,NULL,NULL,NULL,NULL,NULL,NULL,1,1)"),
		task.ID, tenant, link.WorkflowDefinitionID, link.WorkflowDefinitionName, link.WorkflowInstanceID, link.ActivityInstanceID,
		link.BookmarkID, key, def.Title, def.Reference, string(tags), storekit.SearchText(&task), priority, false, status, now, now,
		string(models.MembershipLive), false, string(actions), false, false); err != nil {
		if duplicate(err) {
			return Repeated, nil // a twin created it first
		}
		return Failed, retryable(err)
	}
	keys := storekit.TagKeys(&task)
	if len(keys) > 0 {
		values, args := "", []any{}
		for i, tag := range keys {
			if i > 0 {
				values += ","
			}
			values += "(?,?,?)"
			args = append(args, task.ID, tag, tenant)
		}
		if _, err := tx.ExecContext(ctx, b.q("INSERT INTO `user_task_tags` (`task_id`,`tag`,`tenant_id`) VALUES "+values), args...); err != nil {
			return Failed, retryable(err)
		}
	}
	if _, err := tx.ExecContext(ctx, b.q("INSERT INTO `user_task_candidates` (`id`,`tenant_id`,`task_id`,`provider`,`participant_type`,`participant_id`,"+
		"`display_name`,`source`,`source_key`,`source_group_provider`,`source_group_id`,`task_status`,`created_at`,`updated_at`) VALUES (?,?,?,?,?,?,NULL,?,'-',NULL,NULL,?,?,?)"),
		models.NewID(), tenant, task.ID, models.DefaultProvider, string(models.GroupParticipant), def.CandidateGroups[0].ID,
		string(models.SourceDirectGroup), status, now, now); err != nil {
		return Failed, retryable(err)
	}
	opID := models.NewID()
	if _, err := tx.ExecContext(ctx, b.q("INSERT INTO `user_task_events` (`id`,`tenant_id`,`task_id`,`seq`,`revision`,`event_type`,`occurred_at`,"+
		"`operation_id`,`actor_provider`,`actor_type`,`actor_id`,`actor_display`,`reason`,`metadata`) VALUES (?,?,?,1,1,?,?,?,NULL,NULL,NULL,NULL,NULL,?)"),
		models.NewID(), tenant, task.ID, string(models.EventCreated), now, opID, `{"status":"`+status+`"}`); err != nil {
		return Failed, retryable(err)
	}
	result := `{"status":"completed","revision":1,"taskStatus":"` + status + `"}`
	if _, err := tx.ExecContext(ctx, b.q("INSERT INTO `user_task_operations` (`id`,`tenant_id`,`task_id`,`operation_id`,`kind`,`expected_revision`,"+
		"`request_hash`,`state`,`attempts`,`action_key`,`reason`,`actor_provider`,`actor_type`,`actor_id`,`actor_display`,`result_json`,`payload_enc`,"+
		"`created_at`,`updated_at`,`completed_at`) VALUES (?,?,?,?,?,0,?,?,1,NULL,NULL,NULL,NULL,NULL,NULL,?,NULL,?,?,?)"),
		models.NewID(), tenant, task.ID, opID, string(models.OpProjection), models.RequestHash(models.OpProjection, 0, link),
		string(models.OperationCompleted), result, now, now, now); err != nil {
		return Failed, retryable(err)
	}
	row := map[string]any{"tenant_id": tenant, "id": task.ID, "workflow_definition_id": link.WorkflowDefinitionID,
		"workflow_definition_name": link.WorkflowDefinitionName}
	if err := b.countDaily(ctx, tx, row, models.MetricCreated, 0, now); err != nil {
		return Failed, err
	}
	res, err := tx.ExecContext(ctx, b.q("UPDATE `user_task_tenant_counters` SET `open_tasks`=open_tasks + 1,`updated_at`=? "+
		"WHERE tenant_id = ? AND stripe = ? AND open_tasks < ?"), now, tenant, b.stripeOf(task.ID), b.stripeCap())
	if err != nil {
		return Failed, retryable(err)
	}
	if n, err := res.RowsAffected(); err != nil || n != 1 {
		return Failed, cmpErr(err, fmt.Errorf("the open-task counter stripe %d of %s is missing or full", b.stripeOf(task.ID), tenant))
	}
	if err := tx.Commit(); err != nil {
		return Failed, retryable(err)
	}
	return Applied, nil
}

// stripeCap is a counter stripe's share of the default open-task cap, as the store spreads it.
func (b *fullBaseline) stripeCap() int {
	return models.DefaultOpenTasksPerTenant / b.stripes()
}

// assignmentSQL reads a task's candidates and exclusions in one statement, as the store does.
const assignmentSQL = "SELECT 0 AS row_kind, provider, participant_type, participant_id, display_name, source, " +
	"source_key, source_group_provider, source_group_id, task_status FROM user_task_candidates WHERE task_id = ? AND tenant_id = ? " +
	"UNION ALL SELECT 1, provider, participant_type, participant_id, display_name, NULL, NULL, NULL, NULL, NULL " +
	"FROM user_task_exclusions WHERE task_id = ? AND tenant_id = ? " +
	"ORDER BY row_kind, source, provider, participant_type, participant_id, source_key"

// burst: W writers deliver every one of T bookmarks in the same order with the raw statements,
// in a tenant of the round's the store has met (one task projected through it first, so its
// counter stripes exist). Exactly one delivery per bookmark creates its task, and each reads
// back through the store like one of its own (the facts and the audit).
func (b *fullBaseline) burst(ctx context.Context, r *round, m *meter) error {
	if b == nil {
		return nil
	}
	tenant := r.tenant + "-full"
	if _, _, err := b.seed.Project(ctx, tenant, bookmark(tenant, "seed", 0, false)); err != nil {
		return fmt.Errorf("project the tenant's first task: %w", err)
	}
	t := &tally{}
	phase(ctx, r.opts.Writers, func(ctx context.Context, w int) {
		for i := range r.opts.Tasks {
			t.observe(m, func() (Outcome, error) { return b.project(ctx, tenant, bookmark(tenant, "burst", i, false)) })
		}
	}, m)
	n, w := int64(r.opts.Tasks), int64(r.opts.Writers)
	r.rep.check("projection (raw, full shape): created", n, t.n(Applied))
	r.rep.check("projection (raw, full shape): duplicates answered", n*(w-1), t.n(Repeated))
	r.rep.check("projection (raw, full shape): errors", 0, t.n(Failed)+t.n(Conflict))
	var ok atomic.Int64
	for i := range r.opts.Tasks {
		it, o, err := b.seed.Project(ctx, tenant, bookmark(tenant, "burst", i, false))
		if err != nil {
			return fmt.Errorf("read back bookmark %d: %w", i, err)
		}
		f, err := StoreInspector{Store: r.opts.Store}.Inspect(ctx, tenant, it.ID)
		if err != nil {
			return fmt.Errorf("inspect %s: %w", it.ID, err)
		}
		if o == Repeated && f.Status == models.StatusAvailable && f.Events[models.EventCreated] == 1 {
			ok.Add(1)
		}
	}
	r.rep.check("projection (raw, full shape): each bookmark's task answered by the store with one created event", n, ok.Load())
	return r.auditTenant(ctx, "projection (raw, full shape)", tenant)
}
