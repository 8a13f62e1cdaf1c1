package stress

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"

	"usertasks/models"
)

// The complete command's full shape: the eight statements the store sends for a completion
// without data (storetest/statements.go's budget, copied from Config.OnSQL), written by hand:
// the clock, the task row locked and read with its sealed columns, its candidates and
// exclusions in one read, the guarded UPDATE with the outcome, the candidates' status copy, the
// completion-requested event, the accepted operation and the resumption outbox row. The
// completion counts in the rollup only at finalization, which the loopback runtime does.

// completeTaskColumns are the columns the store reads of a task it completes: the claim's and
// the sealed ones a completion may check the data against.
var completeTaskColumns = strings.TrimSuffix(taskColumns, ",`invitation_defs_enc`") +
	",`task_data_enc`,`form_enc`,`invitation_defs_enc`,`completion_data_enc`"

// complete completes task id as a with the default action at revision expected, with the
// store's statements; a lost race is a Conflict, a replayed operation id Repeated.
func (b *fullBaseline) complete(ctx context.Context, a models.Actor, tenant, id string, expected int, opID string) (Outcome, error) {
	return withRawRetry(func() (Outcome, error) { return b.completeOnce(ctx, a, tenant, id, expected, opID) })
}

func (b *fullBaseline) completeOnce(ctx context.Context, a models.Actor, tenant, id string, expected int, opID string) (Outcome, error) {
	tx, err := b.db.BeginTx(ctx, nil)
	if err != nil {
		return Failed, err
	}
	defer tx.Rollback() //nolint:errcheck // after Commit it does nothing
	now, err := b.now(ctx, tx)
	if err != nil {
		return Failed, err
	}
	tasks, err := rowsOf(tx.QueryContext(ctx, b.q("SELECT "+completeTaskColumns+" FROM `user_tasks` WHERE tenant_id = ? AND id = ? LIMIT 1"+b.lockSQL()), tenant, id))
	if err != nil {
		return Failed, retryable(err)
	}
	if len(tasks) != 1 {
		return Failed, fmt.Errorf("task %s not found", id)
	}
	task := tasks[0]
	if _, err := rowsOf(tx.QueryContext(ctx, b.q(assignmentSQL), id, tenant, id, tenant)); err != nil {
		return Failed, err
	}
	// The decisions models.Complete makes: the assignee completes a declared action of an
	// Assigned task at its revision; anything else looks the operation id up (a replay).
	var actions []models.Action
	if err := json.Unmarshal([]byte(asString(task["actions_json"])), &actions); err != nil {
		return Failed, fmt.Errorf("task %s actions: %w", id, err)
	}
	key := ""
	for _, x := range actions {
		if strings.EqualFold(x.Key, models.ActionComplete) {
			key = x.Key
		}
	}
	rev, seq := asInt(task["revision"]), asInt(task["last_event_seq"])
	assignee := asString(task["assignee_provider"]) == a.Subject.Provider && asString(task["assignee_type"]) == string(a.Subject.Type) &&
		asString(task["assignee_id"]) == a.Subject.ID
	if key == "" || !assignee || rev != expected || asString(task["status"]) != string(models.StatusAssigned) {
		prior, err := rowsOf(tx.QueryContext(ctx, b.q("SELECT * FROM `user_task_operations` WHERE tenant_id = ? AND task_id = ? AND operation_id = ? LIMIT 1"),
			tenant, id, opID))
		if err != nil {
			return Failed, err
		}
		if len(prior) > 0 {
			return Repeated, nil
		}
		return Conflict, nil
	}
	res, err := tx.ExecContext(ctx, b.q("UPDATE `user_tasks` SET `status`=?,`updated_at`=?,`transitioned_at`=?,`completion_action_key`=?,"+
		"`completed_by_provider`=?,`completed_by_type`=?,`completed_by_id`=?,`completed_by_display`=?,`revision`=?,`last_event_seq`=? "+
		"WHERE (tenant_id = ? AND revision = ? AND last_event_seq = ?) AND `id` = ?"),
		string(models.StatusCompleting), now, now, key, a.Subject.Provider, string(a.Subject.Type), a.Subject.ID, a.DisplayName, rev+1, seq+1,
		tenant, rev, seq, id)
	if err != nil {
		return Failed, retryable(err)
	}
	if n, err := res.RowsAffected(); err != nil || n != 1 {
		return Conflict, err
	}
	if _, err := tx.ExecContext(ctx, b.q("UPDATE `user_task_candidates` SET `task_status`=?,`updated_at`=? WHERE task_id = ? AND tenant_id = ?"),
		string(models.StatusCompleting), now, id, tenant); err != nil {
		return Failed, retryable(err)
	}
	if _, err := tx.ExecContext(ctx, b.q("INSERT INTO `user_task_events` (`id`,`tenant_id`,`task_id`,`seq`,`revision`,`event_type`,`occurred_at`,"+
		"`operation_id`,`actor_provider`,`actor_type`,`actor_id`,`actor_display`,`reason`,`metadata`) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,NULL,?)"),
		models.NewID(), tenant, id, seq+1, rev+1, string(models.EventCompletionRequested), now, opID, a.Subject.Provider, string(a.Subject.Type),
		a.Subject.ID, a.DisplayName, `{"actionKey":"`+key+`"}`); err != nil {
		return Failed, retryable(err)
	}
	result := fmt.Sprintf(`{"status":"accepted","revision":%d,"taskStatus":"Completing"}`, rev+1)
	hash := models.RequestHash(models.OpComplete, rev, map[string]any{"actionKey": key, "data": nil})
	if _, err := tx.ExecContext(ctx, b.q("INSERT INTO `user_task_operations` (`id`,`tenant_id`,`task_id`,`operation_id`,`kind`,`expected_revision`,"+
		"`request_hash`,`state`,`attempts`,`action_key`,`reason`,`actor_provider`,`actor_type`,`actor_id`,`actor_display`,`result_json`,`payload_enc`,"+
		"`created_at`,`updated_at`,`completed_at`) VALUES (?,?,?,?,?,?,?,?,1,?,NULL,?,?,?,?,?,NULL,?,?,NULL)"),
		models.NewID(), tenant, id, opID, string(models.OpComplete), rev, hash, string(models.OperationAccepted), key,
		a.Subject.Provider, string(a.Subject.Type), a.Subject.ID, a.DisplayName, result, now, now); err != nil {
		if duplicate(err) {
			return Repeated, nil // rolled back: the operation ran before
		}
		return Failed, retryable(err)
	}
	if _, err := tx.ExecContext(ctx, b.q("INSERT INTO `user_task_resumptions` (`id`,`tenant_id`,`task_id`,`operation_id`,`kind`,`state`,`attempts`,"+
		"`available_at`,`last_error`,`lease_owner`,`lease_token`,`lease_generation`,`lease_expires_at`,`created_at`,`updated_at`,`delivered_at`) "+
		"VALUES (?,?,?,?,?,?,0,?,NULL,NULL,NULL,0,NULL,?,?,NULL)"),
		models.NewID(), tenant, id, opID, string(models.OpComplete), string(models.DeliveryPending), now, now, now); err != nil {
		return Failed, retryable(err)
	}
	if err := tx.Commit(); err != nil {
		return Failed, retryable(err)
	}
	return Applied, nil
}

// claimComplete: T pool tasks projected through the store in a tenant of the round's; W
// workers each take the next task, claim it and complete it with the raw statements while W/2
// readers page the inbox through the store, as the mixed mode's do. Every claim and completion
// applies; the loopback
// finalizes the tasks through the store, and each reads back Completed with one event of each
// step and one outbox row, and the tenant audits clean.
func (b *fullBaseline) claimComplete(ctx context.Context, r *round, m *meter) error {
	if b == nil {
		return nil
	}
	tenant := r.tenant + "-full"
	items := make([]Item, r.opts.Tasks)
	seedErrs := make([]error, r.opts.Writers)
	phase(ctx, r.opts.Writers, func(ctx context.Context, w int) {
		for i := w; i < len(items) && seedErrs[w] == nil; i += r.opts.Writers {
			it, _, err := b.seed.Project(ctx, tenant, bookmark(tenant, "mixed", i, false))
			if err != nil {
				seedErrs[w] = fmt.Errorf("project task %d: %w", i, err)
			}
			items[i] = it
		}
	})
	if err := errors.Join(seedErrs...); err != nil {
		return err
	}
	work := make(chan int, len(items))
	for i := range items {
		work <- i
	}
	close(work)
	// Beside the readers ours has: W/2 people paging the tenant's inbox, through the store.
	done := make(chan struct{})
	var readers sync.WaitGroup
	readers.Go(func() {
		phase(ctx, r.readers(), func(ctx context.Context, j int) {
			r.read(ctx, b.seed, claimer(tenant, 1000+j), nil, &meter{}, &tally{}, done)
		})
	})
	t := &tally{}
	phase(ctx, r.opts.Writers, func(ctx context.Context, w int) {
		a := claimer(tenant, w)
		for i := range work {
			it := items[i]
			o := t.observe(m, func() (Outcome, error) {
				return b.claim(ctx, a, tenant, it.ID, it.Revision, fmt.Sprintf("claim-%d", i))
			})
			if o != Applied {
				continue
			}
			t.observe(m, func() (Outcome, error) {
				return b.complete(ctx, a, tenant, it.ID, it.Revision+1, fmt.Sprintf("complete-%d", i))
			})
		}
	}, m)
	close(done)
	readers.Wait()
	r.rep.check("claim + complete (raw, full shape): applied", 2*len(items), t.n(Applied))
	r.rep.check("claim + complete (raw, full shape): errors and conflicts", 0, t.n(Failed)+t.n(Conflict))
	if err := b.seed.Finalize(ctx, tenant, ids(items)); err != nil {
		return fmt.Errorf("finalize: %w", err)
	}
	inspect := StoreInspector{Store: r.opts.Store}
	ok := 0
	for _, it := range items {
		f, err := inspect.Inspect(ctx, tenant, it.ID)
		if err != nil {
			return fmt.Errorf("inspect %s: %w", it.ID, err)
		}
		if f.Status == models.StatusCompleted && f.Events[models.EventClaimed] == 1 && f.Events[models.EventCompletionRequested] == 1 &&
			f.Events[models.EventCompleted] == 1 && oneOutbox(f) {
			ok++
		}
	}
	r.rep.check("claim + complete (raw, full shape): tasks Completed with one event of each step and one outbox row", len(items), ok)
	return r.auditTenant(ctx, "claim + complete (raw, full shape)", tenant)
}
