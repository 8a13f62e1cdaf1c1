package stress

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"hash/fnv"
	"strconv"
	"strings"
	"time"

	"usertasks/migrations"
	"usertasks/models"
	"usertasks/repository"
)

// fullBaseline is the raw yardstick on the real schema: the claim transaction the store sends
// (the eight statements of storetest/statements.go's budget, copied from what the
// store logs through Config.OnSQL), written by hand and issued through database/sql on the
// store's writer pool, against tasks projected through the store in a tenant of their own.
// Beside the store-direct figure it shows what Go and GORM add to the same statements; beside
// the narrow baseline, what the schema's statements and indexes cost.
type fullBaseline struct {
	db      *sql.DB
	dialect migrations.Dialect
	seed    *StoreTarget
}

func openFullBaseline(store *repository.Store) (*fullBaseline, error) {
	db, err := store.DB()
	if err != nil {
		return nil, err
	}
	return &fullBaseline{db: db, dialect: store.Dialect(), seed: NewStoreTarget(store)}, nil
}

// taskColumns are the columns the store reads of a task row, in its order.
const taskColumns = "`id`,`tenant_id`,`workflow_definition_id`,`workflow_definition_name`,`workflow_definition_version`," +
	"`workflow_instance_id`,`workflow_instance_reference`,`activity_instance_id`,`bookmark_id`,`materialization_key`,`title`," +
	"`summary`,`reference`,`task_type`,`tags`,`requester_provider`,`requester_type`,`requester_id`,`requester_display`,`priority`," +
	"`due_at`,`is_overdue`,`status`,`created_at`,`updated_at`,`assigned_at`,`completed_at`,`transitioned_at`,`assignee_provider`," +
	"`assignee_type`,`assignee_id`,`assignee_display`,`membership_mode`,`allow_exclusion_override`,`candidate_users`,`candidate_groups`," +
	"`actions_json`,`timeout_enabled`,`cancellation_enabled`,`health_severity`,`health_code`,`health_message`,`completion_action_key`," +
	"`completed_by_provider`,`completed_by_type`,`completed_by_id`,`completed_by_display`,`revision`,`last_event_seq`,`invitation_defs_enc`"

// q writes a statement in the dialect's quotes and placeholders.
func (b *fullBaseline) q(s string) string { return rawSQL(b.dialect, s) }

// rawSQL writes a baseline's statement, written for SQLite and MariaDB (backticks and ?), in
// the quotes and placeholders of dialect d.
func rawSQL(d migrations.Dialect, s string) string {
	if d != migrations.Postgres {
		return s
	}
	var out strings.Builder
	n := 0
	for _, r := range s {
		switch r {
		case '?':
			n++
			out.WriteString("$" + strconv.Itoa(n))
		case '`':
			out.WriteByte('"')
		default:
			out.WriteRune(r)
		}
	}
	return out.String()
}

// clockSQL reads the database's clock, as the store does at the start of every transaction.
func (b *fullBaseline) clockSQL() string {
	switch b.dialect {
	case migrations.SQLite:
		return "SELECT strftime('%Y-%m-%d %H:%M:%f', 'now')"
	case migrations.Postgres:
		return "SELECT clock_timestamp()"
	}
	return "SELECT UTC_TIMESTAMP(6)"
}

// lockSQL locks the task row as it is read; SQLite's IMMEDIATE transaction holds the database.
func (b *fullBaseline) lockSQL() string {
	if b.dialect == migrations.SQLite {
		return ""
	}
	return " FOR UPDATE"
}

// errRawRetry: a concurrent transaction made the same day's first rollup row or chose this
// one as a deadlock's victim; the whole transaction runs again, as the store's would.
var errRawRetry = errors.New("stress: raw transaction must be retried")

// claim claims task id for a at revision expected (0: whatever it reads) with the store's
// statements; a lost race is a Conflict, a replayed operation id Repeated.
func (b *fullBaseline) claim(ctx context.Context, a models.Actor, tenant, id string, expected int, opID string) (Outcome, error) {
	return withRawRetry(func() (Outcome, error) { return b.claimOnce(ctx, a, tenant, id, expected, opID) })
}

// withRawRetry runs a raw transaction again while it fails with errRawRetry, five times at most.
func withRawRetry(once func() (Outcome, error)) (Outcome, error) {
	for attempt := 1; ; attempt++ {
		o, err := once()
		if !errors.Is(err, errRawRetry) || attempt == 5 {
			return o, err
		}
	}
}

func (b *fullBaseline) claimOnce(ctx context.Context, a models.Actor, tenant, id string, expected int, opID string) (Outcome, error) {
	tx, err := b.db.BeginTx(ctx, nil)
	if err != nil {
		return Failed, err
	}
	defer tx.Rollback() //nolint:errcheck // after Commit it does nothing
	now, err := b.now(ctx, tx)
	if err != nil {
		return Failed, err
	}
	tasks, err := rowsOf(tx.QueryContext(ctx, b.q("SELECT "+taskColumns+" FROM `user_tasks` WHERE tenant_id = ? AND id = ? LIMIT 1"+b.lockSQL()), tenant, id))
	if err != nil {
		return Failed, retryable(err)
	}
	if len(tasks) != 1 {
		return Failed, fmt.Errorf("task %s not found", id)
	}
	task := tasks[0]
	assignment, err := rowsOf(tx.QueryContext(ctx, b.q(assignmentSQL), id, tenant, id, tenant))
	if err != nil {
		return Failed, err
	}
	// The decisions models.Claim makes: eligibility, then revision and status. As in the store,
	// the operation id is looked up only when the decision refuses (a replay then answers with
	// what it did); a replay the decision would accept meets the operation's unique key below.
	if !eligible(a, assignment) {
		return Failed, fmt.Errorf("%s is not a candidate of task %s", a.Subject.ID, id)
	}
	rev, seq := asInt(task["revision"]), asInt(task["last_event_seq"])
	if (expected != 0 && rev != expected) || asString(task["status"]) != string(models.StatusAvailable) {
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
	created, err := asTime(task["created_at"])
	if err != nil {
		return Failed, err
	}
	res, err := tx.ExecContext(ctx, b.q("UPDATE `user_tasks` SET `status`=?,`updated_at`=?,`assigned_at`=?,`assignee_provider`=?,`assignee_type`=?,"+
		"`assignee_id`=?,`assignee_display`=?,`revision`=?,`last_event_seq`=? WHERE (tenant_id = ? AND revision = ? AND last_event_seq = ?) AND `id` = ?"),
		string(models.StatusAssigned), now, now, a.Subject.Provider, string(a.Subject.Type), a.Subject.ID, a.DisplayName, rev+1, seq+1,
		tenant, rev, seq, id)
	if err != nil {
		return Failed, retryable(err)
	}
	if n, err := res.RowsAffected(); err != nil || n != 1 {
		return Conflict, err
	}
	if _, err := tx.ExecContext(ctx, b.q("UPDATE `user_task_candidates` SET `task_status`=?,`updated_at`=? WHERE task_id = ? AND tenant_id = ?"),
		string(models.StatusAssigned), now, id, tenant); err != nil {
		return Failed, retryable(err)
	}
	if _, err := tx.ExecContext(ctx, b.q("INSERT INTO `user_task_events` (`id`,`tenant_id`,`task_id`,`seq`,`revision`,`event_type`,`occurred_at`,"+
		"`operation_id`,`actor_provider`,`actor_type`,`actor_id`,`actor_display`,`reason`,`metadata`) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,NULL,NULL)"),
		models.NewID(), tenant, id, seq+1, rev+1, string(models.EventClaimed), now, opID, a.Subject.Provider, string(a.Subject.Type),
		a.Subject.ID, a.DisplayName); err != nil {
		return Failed, retryable(err)
	}
	result := fmt.Sprintf(`{"status":"completed","revision":%d,"taskStatus":"Assigned"}`, rev+1)
	if _, err := tx.ExecContext(ctx, b.q("INSERT INTO `user_task_operations` (`id`,`tenant_id`,`task_id`,`operation_id`,`kind`,`expected_revision`,"+
		"`request_hash`,`state`,`attempts`,`action_key`,`reason`,`actor_provider`,`actor_type`,`actor_id`,`actor_display`,`result_json`,`payload_enc`,"+
		"`created_at`,`updated_at`,`completed_at`) VALUES (?,?,?,?,?,?,?,?,1,NULL,NULL,?,?,?,?,?,NULL,?,?,?)"),
		models.NewID(), tenant, id, opID, string(models.OpClaim), rev, models.RequestHash(models.OpClaim, rev, nil), string(models.OperationCompleted),
		a.Subject.Provider, string(a.Subject.Type), a.Subject.ID, a.DisplayName, result, now, now, now); err != nil {
		if duplicate(err) {
			return Repeated, nil // rolled back: the operation ran before
		}
		return Failed, retryable(err)
	}
	if err := b.countDaily(ctx, tx, task, models.MetricClaimed, models.DurationBucket(now.Sub(created)), now); err != nil {
		return Failed, err
	}
	if err := tx.Commit(); err != nil {
		return Failed, retryable(err)
	}
	return Applied, nil
}

// now reads the database clock as the store does: SQLite's as text, the servers' as a time.
func (b *fullBaseline) now(ctx context.Context, tx *sql.Tx) (time.Time, error) {
	var now time.Time
	if b.dialect == migrations.SQLite {
		var text string
		if err := tx.QueryRowContext(ctx, b.clockSQL()).Scan(&text); err != nil {
			return now, err
		}
		parsed, err := time.ParseInLocation("2006-01-02 15:04:05.000", text, time.UTC)
		if err != nil {
			return now, fmt.Errorf("sqlite clock %q: %w", text, err)
		}
		now = parsed
	} else if err := tx.QueryRowContext(ctx, b.clockSQL()).Scan(&now); err != nil {
		return now, err
	}
	return now.UTC().Truncate(time.Microsecond), nil
}

// countDaily raises the day's counter of metric in the task's stripe: the guarded UPDATE, or
// the INSERT of the stripe's first count of the day.
func (b *fullBaseline) countDaily(ctx context.Context, tx *sql.Tx, task map[string]any, metric string, bucket int, now time.Time) error {
	day, flow, name := now.UTC().Format(time.DateOnly), asString(task["workflow_definition_id"]), task["workflow_definition_name"]
	tenant, stripe := asString(task["tenant_id"]), b.stripeOf(asString(task["id"]))
	res, err := tx.ExecContext(ctx, b.q("UPDATE `user_task_daily_stats` SET `event_count`=event_count + 1,`updated_at`=?,`workflow_definition_name`=? "+
		"WHERE tenant_id = ? AND stat_day = ? AND workflow_definition_id = ? AND metric = ? AND bucket = ? AND stripe = ?"),
		now, name, tenant, day, flow, metric, bucket, stripe)
	if err != nil {
		return retryable(err)
	}
	if n, err := res.RowsAffected(); err != nil || n > 0 {
		return err
	}
	_, err = tx.ExecContext(ctx, b.q("INSERT INTO `user_task_daily_stats` (`tenant_id`,`stat_day`,`workflow_definition_id`,`metric`,`bucket`,`stripe`,"+
		"`workflow_definition_name`,`event_count`,`updated_at`) VALUES (?,?,?,?,?,?,?,1,?)"), tenant, day, flow, metric, bucket, stripe, name, now)
	return retryable(err)
}

// stripeOf is the rollup and counter stripe of a task, as the store picks it (repository/tenant_counter.go):
// FNV-1a of the id over 16 stripes, one on SQLite, whose single writer has nothing to spread.
func (b *fullBaseline) stripeOf(taskID string) int {
	h := fnv.New32a()
	_, _ = h.Write([]byte(taskID))
	return int(h.Sum32() % uint32(b.stripes()))
}

// stripes is how many stripes the store spreads a counter over on the dialect.
func (b *fullBaseline) stripes() int {
	if b.dialect == migrations.SQLite {
		return 1
	}
	return 16
}

// retryable marks the errors after which the transaction runs again: a duplicate key (the
// day's first rollup row made concurrently) or a deadlock's victim. The drivers' messages are
// the only thing the three have in common.
func retryable(err error) error {
	if err == nil {
		return nil
	}
	if duplicate(err) || strings.Contains(err.Error(), "Deadlock found") || strings.Contains(err.Error(), "deadlock detected") {
		return fmt.Errorf("%w: %v", errRawRetry, err)
	}
	return err
}

// duplicate: a unique key refused the row.
func duplicate(err error) bool {
	msg := err.Error()
	return strings.Contains(msg, "Duplicate entry") || strings.Contains(msg, "duplicate key value") || strings.Contains(msg, "UNIQUE constraint failed")
}

// eligible: a user candidate is a, or one of a's groups is a group candidate, and a is not
// excluded (the assignment read's rows of kind 1).
func eligible(a models.Actor, assignment []map[string]any) bool {
	is := func(row map[string]any, typ models.ParticipantType, id string) bool {
		return asString(row["participant_type"]) == string(typ) && asString(row["participant_id"]) == id
	}
	var candidates []map[string]any
	for _, r := range assignment {
		if asInt(r["row_kind"]) == 1 {
			if is(r, models.UserParticipant, a.Subject.ID) {
				return false
			}
			continue
		}
		candidates = append(candidates, r)
	}
	for _, c := range candidates {
		if is(c, models.UserParticipant, a.Subject.ID) {
			return true
		}
		for _, g := range a.Groups {
			if is(c, models.GroupParticipant, g.ID) {
				return true
			}
		}
	}
	return false
}

// rowsOf reads every row into a map of column to the driver's value.
func rowsOf(rows *sql.Rows, err error) ([]map[string]any, error) {
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	cols, err := rows.Columns()
	if err != nil {
		return nil, err
	}
	var out []map[string]any
	for rows.Next() {
		vals := make([]any, len(cols))
		ptrs := make([]any, len(cols))
		for i := range vals {
			ptrs[i] = &vals[i]
		}
		if err := rows.Scan(ptrs...); err != nil {
			return nil, err
		}
		row := make(map[string]any, len(cols))
		for i, c := range cols {
			row[c] = vals[i]
		}
		out = append(out, row)
	}
	return out, rows.Err()
}

func asString(v any) string {
	switch x := v.(type) {
	case string:
		return x
	case []byte:
		return string(x)
	case nil:
		return ""
	}
	return fmt.Sprint(v)
}

func asInt(v any) int {
	switch x := v.(type) {
	case int64:
		return int(x)
	case int32:
		return int(x)
	case int:
		return x
	}
	n, _ := strconv.Atoi(asString(v))
	return n
}

// asTime reads a timestamp column: a time from every driver here, text as a fallback.
func asTime(v any) (time.Time, error) {
	if t, ok := v.(time.Time); ok {
		return t, nil
	}
	s := asString(v)
	for _, layout := range []string{"2006-01-02 15:04:05.999999999-07:00", "2006-01-02 15:04:05.999999999", time.RFC3339Nano} {
		if t, err := time.Parse(layout, s); err == nil {
			return t, nil
		}
	}
	return time.Time{}, fmt.Errorf("a timestamp column holds %q", s)
}

// contended: T tasks offered to the pool group, projected through the store in a tenant of
// the round's; W claimers each claim every task at its projected revision, in the same order,
// with the raw statements. Exactly one claim per task wins, and what it wrote reads back
// through the store like one of its own (the facts and the audit).
func (b *fullBaseline) contended(ctx context.Context, r *round, m *meter) error {
	if b == nil {
		return nil
	}
	tenant := r.tenant + "-full"
	items := make([]Item, r.opts.Tasks)
	seedErrs := make([]error, r.opts.Writers)
	phase(ctx, r.opts.Writers, func(ctx context.Context, w int) {
		for i := w; i < len(items) && seedErrs[w] == nil; i += r.opts.Writers {
			it, _, err := b.seed.Project(ctx, tenant, bookmark(tenant, "claim", i, false))
			if err != nil {
				seedErrs[w] = fmt.Errorf("project task %d: %w", i, err)
			}
			items[i] = it
		}
	})
	if err := errors.Join(seedErrs...); err != nil {
		return err
	}
	t := &tally{}
	phase(ctx, r.opts.Writers, func(ctx context.Context, w int) {
		a := claimer(tenant, w)
		for i, it := range items {
			t.observe(m, func() (Outcome, error) {
				return b.claim(ctx, a, tenant, it.ID, it.Revision, fmt.Sprintf("claim-%d-%d", w, i))
			})
		}
	}, m)
	n, w := int64(r.opts.Tasks), int64(r.opts.Writers)
	r.rep.check("claim (raw, full shape): applied", n, t.n(Applied))
	r.rep.check("claim (raw, full shape): conflicts", n*(w-1), t.n(Conflict))
	r.rep.check("claim (raw, full shape): errors", 0, t.n(Failed))
	inspect := StoreInspector{Store: r.opts.Store}
	ok := 0
	for _, it := range items {
		f, err := inspect.Inspect(ctx, tenant, it.ID)
		if err != nil {
			return fmt.Errorf("inspect %s: %w", it.ID, err)
		}
		if f.Status == models.StatusAssigned && f.Events[models.EventClaimed] == 1 && f.Assignee != "" && f.Outbox <= 0 {
			ok++
		}
	}
	r.rep.check("claim (raw, full shape): tasks assigned to one claimer with one claimed event", len(items), ok)
	return r.auditTenant(ctx, "claim (raw, full shape)", tenant)
}
