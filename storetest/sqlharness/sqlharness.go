// Package sqlharness runs the store contract suite (storetest) on the SQL store: it
// opens *repository.Store on a fresh database of one dialect (testfactory) and implements the
// suite's storage hooks with the SQL statements the cases have always run, plus the SQL-only
// hooks (query plans, statistics). Tests outside the suite that need the same tamperings (the
// `web audit` command's test) take the harness from here too.
package sqlharness

import (
	"database/sql"
	"fmt"
	"sort"
	"strings"
	"testing"

	"usertasks/migrations"
	"usertasks/repository"
	"usertasks/store"
	"usertasks/storekit"
	"usertasks/storetest"
	"usertasks/testfactory"
)

// Harness opens each case's store on a fresh database of dialect d (testfactory.Database).
func Harness(d migrations.Dialect) storetest.Harness {
	return storetest.Harness{
		Name: testfactory.Provider(d).Name(),
		Open: func(t *testing.T, o storetest.Options) store.Store {
			return testfactory.OpenSQL(t, testfactory.Database(t, testfactory.Provider(d)), o.StoreOpts())
		},
		Reopen: reopen,
		Tamper: func(t *testing.T, s store.Store, what storetest.Tampering, args ...any) error {
			tamper(t, sqlStore(t, s), d, what, args...)
			return nil
		},
		CountRecords: func(t *testing.T, s store.Store, unit string, where map[string]any) int {
			return countRecords(t, sqlStore(t, s), d, unit, where)
		},
		CountContaining: func(t *testing.T, s store.Store, unit, field, text string) int {
			return queryInt(t, sqlStore(t, s), rebind(d, "SELECT COUNT(*) FROM "+unit+" WHERE "+field+" LIKE ?"), "%"+text+"%")
		},
		CounterStripes: func(t *testing.T, s store.Store, tenant string) []int {
			return counterStripes(t, sqlStore(t, s), d, tenant)
		},
		SQL: &storetest.SQLHooks{
			Dialect: d,
			Explain: func(t *testing.T, s store.Store, q string, args ...any) string {
				// A statement the store explains itself (PostgreSQL's search estimate, which
				// plans and reads nothing) is checked by the plan of what it explains.
				return explain(t, sqlStore(t, s), explainPrefix[d]+strings.TrimPrefix(q, repository.SearchEstimatePrefix), args...)
			},
			Analyze: func(t *testing.T, s store.Store) {
				execSQL(t, sqlStore(t, s), analyze[d])
			},
		},
	}
}

var explainPrefix = map[migrations.Dialect]string{
	migrations.SQLite:   "EXPLAIN QUERY PLAN ",
	migrations.Postgres: "EXPLAIN ",
	migrations.MySQL:    "EXPLAIN ",
}

var analyze = map[migrations.Dialect]string{
	migrations.SQLite:   "ANALYZE",
	migrations.Postgres: "ANALYZE",
	migrations.MySQL:    "ANALYZE TABLE user_tasks, user_task_candidates, user_task_tags, user_task_events, user_task_notifications",
}

// Open returns h.Open's store as *repository.Store, for tests that call the SQL store's methods
// outside the contract (the worker queries) on the suite's fresh databases.
func Open(t *testing.T, h storetest.Harness, o storetest.Options) *repository.Store {
	t.Helper()
	return sqlStore(t, h.Open(t, o))
}

func sqlStore(t *testing.T, s store.Store) *repository.Store {
	t.Helper()
	rs, ok := s.(*repository.Store)
	if !ok {
		t.Fatalf("the SQL harness got a %T, not a *repository.Store", s)
	}
	return rs
}

func reopen(t *testing.T, st store.Store, o storetest.Options) store.Store {
	s := sqlStore(t, st)
	u := testfactory.URL(t, s)
	if err := s.Close(); err != nil {
		t.Fatalf("close: %v", err)
	}
	return testfactory.OpenSQL(t, u, o.StoreOpts())
}

// tamperings are the statements of each Tampering; every statement gets the tampering's args.
var tamperings = map[storetest.Tampering][]string{
	storetest.CorruptInstructions:    {"UPDATE user_tasks SET instructions_enc = 'v1:test:AAAA' WHERE id = ?"},
	storetest.CorruptDataKey:         {"UPDATE user_tasks SET task_data_enc = 'v1:nokey:AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA' WHERE id = ?"},
	storetest.CorruptStatus:          {"UPDATE user_tasks SET status = 'Bogus' WHERE id = ?"},
	storetest.CorruptActions:         {"UPDATE user_tasks SET actions_json = 'not json' WHERE id = ?"},
	storetest.CorruptCandidateStatus: {"UPDATE user_task_candidates SET task_status = 'Completed' WHERE task_id = ?"},
	storetest.MoveInstructions:       {"UPDATE user_tasks SET instructions_enc = (SELECT x.instructions_enc FROM (SELECT instructions_enc FROM user_tasks WHERE id = ?) x) WHERE id = ?"},
	storetest.MoveRefreshToken:       {"UPDATE user_task_web_sessions SET refresh_token_enc = (SELECT x.refresh_token_enc FROM (SELECT refresh_token_enc FROM user_task_web_sessions WHERE id_hash = ?) x) WHERE id_hash = ?"},

	storetest.DropChunk: {"DELETE FROM user_task_attachment_chunks WHERE id = ?"},
	storetest.CopyChunk: {
		"UPDATE user_task_attachment_chunks SET chunk_enc = (SELECT x.chunk_enc FROM (SELECT chunk_enc FROM user_task_attachment_chunks WHERE id = ?) x) WHERE id = ?",
		"UPDATE user_task_attachment_chunks SET plain_size = (SELECT x.plain_size FROM (SELECT plain_size FROM user_task_attachment_chunks WHERE id = ?) x) WHERE id = ?",
	},
	storetest.CorruptAttachmentHash: {"UPDATE user_task_attachments SET sha256 = '" + strings.Repeat("0", 64) + "' WHERE id = ?"},

	storetest.SetSiblingGroup:         {"UPDATE user_task_invitations SET sibling_group_id = ? WHERE task_id = ?"},
	storetest.ConsumeInvitationRecord: {"UPDATE user_task_invitations SET status = 'consumed', verified_at = updated_at, consumed_at = updated_at WHERE id = ?"},
	storetest.RevokeInvitationRecord:  {"UPDATE user_task_invitations SET status = 'revoked', revoked_at = updated_at WHERE id = ?"},
	storetest.SetInvitationStatus:     {"UPDATE user_task_invitations SET status = ? WHERE id = ?"},
	storetest.InsertGuestSession: {`INSERT INTO user_task_guest_sessions (id, tenant_id, task_id, invitation_id, token_hash,
		participant_provider, participant_id, capabilities, issued_at, expires_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`},
	storetest.ForceCompleted:     {"UPDATE user_tasks SET status = 'Completed', completed_at = updated_at WHERE id = ?"},
	storetest.CompleteOperations: {"UPDATE user_task_operations SET state = 'completed' WHERE task_id = ?"},
	storetest.LeaseDelivery:      {"UPDATE user_task_deliveries SET lease_owner = 'node', lease_token = 'tok', lease_expires_at = ? WHERE invitation_id = ?"},
	storetest.AssignToGuest:      {"UPDATE user_tasks SET status = 'Assigned', assignee_provider = 'guest', assignee_type = 'user', assignee_id = ? WHERE id = ?"},
	storetest.DeliverDelivery:    {"UPDATE user_task_deliveries SET state = 'delivered' WHERE invitation_id = ?"},
	storetest.DeliverResumptions: {"UPDATE user_task_resumptions SET state = 'delivered' WHERE task_id = ?"},

	// The audit's invariants, one task's each (storetest.EveryStatus; ? is the task's id).
	storetest.BreakInvariant(storekit.InvEventSequence):    {"UPDATE user_tasks SET last_event_seq = last_event_seq + 1 WHERE id = ?"},
	storetest.BreakInvariant(storekit.InvEventRevision):    {"UPDATE user_task_events SET revision = 9 WHERE seq = 1 AND task_id = ?"},
	storetest.BreakInvariant(storekit.InvStatusEvent):      {"UPDATE user_task_events SET event_type = 'released' WHERE event_type = 'claimed' AND task_id = ?"},
	storetest.BreakInvariant(storekit.InvStatusFields):     {"UPDATE user_tasks SET completed_at = updated_at WHERE id = ?"},
	storetest.BreakInvariant(storekit.InvCandidateStatus):  {"UPDATE user_task_candidates SET task_status = 'Assigned' WHERE task_id = ?"},
	storetest.BreakInvariant(storekit.InvCandidateSummary): {"UPDATE user_tasks SET candidate_users = candidate_users + 1 WHERE id = ?"},
	storetest.BreakInvariant(storekit.InvTagRows):          {"DELETE FROM user_task_tags WHERE tag = 'urgent' AND task_id = ?"},
	storetest.BreakInvariant(storekit.InvSearchText):       {"UPDATE user_tasks SET search_text = 'something else' WHERE id = ?"},
	storetest.BreakInvariant(storekit.InvOverdueFlag):      {"UPDATE user_tasks SET is_overdue = (1 = 1) WHERE id = ?"},
	storetest.BreakInvariant(storekit.InvOperationState):   {"UPDATE user_task_operations SET state = 'accepted' WHERE kind = 'complete' AND task_id = ?"},
	storetest.BreakInvariant(storekit.InvResumption):       {"UPDATE user_task_resumptions SET state = 'settled' WHERE task_id = ?"},
	storetest.BreakInvariant(storekit.InvResumeStimulus):   {"UPDATE user_task_operations SET payload_enc = NULL WHERE kind = 'complete' AND task_id = ?"},
	storetest.BreakInvariant(storekit.InvCiphertext):       {"UPDATE user_tasks SET task_data_enc = instructions_enc WHERE id = ?"},
	storetest.BreakInvariant(storekit.InvChildTenant):      {"UPDATE user_task_events SET tenant_id = 't9' WHERE seq = 2 AND task_id = ?"},
	storetest.BreakInvariant(storekit.InvTenantCounter):    {"UPDATE user_task_tenant_counters SET open_tasks = open_tasks + 1 WHERE stripe = 0 AND tenant_id = (SELECT x.tenant_id FROM (SELECT tenant_id FROM user_tasks WHERE id = ?) x)"},
	storetest.BreakInvariant(storekit.InvInvitationGuest):  {"UPDATE user_task_invitations SET status = 'consumed' WHERE task_id = ?", "UPDATE user_task_deliveries SET state = 'delivered' WHERE task_id = ?"},
	storetest.BreakInvariant(storekit.InvInvitationGroup):  {"UPDATE user_task_invitations SET status = 'verified' WHERE status = 'revoked' AND task_id = ?"},
	storetest.BreakInvariant(storekit.InvGuestSession):     {"UPDATE user_task_guest_sessions SET participant_id = 'invitation:other' WHERE task_id = ?"},
	storetest.BreakInvariant(storekit.InvDeliveryState):    {"UPDATE user_task_invitations SET status = 'revoked' WHERE task_id = ?"},
	storetest.BreakInvariant(storekit.InvTokenHash):        {"UPDATE user_task_invitations SET token_hash = 'ABC' WHERE task_id = ?"},
}

func tamper(t *testing.T, s *repository.Store, d migrations.Dialect, what storetest.Tampering, args ...any) {
	t.Helper()
	if what == storetest.CounterOnStripeZero {
		// The whole count onto stripe 0, as migration 00008 leaves it.
		n := 0
		for _, v := range counterStripes(t, s, d, args[0].(string)) {
			n += v
		}
		execSQL(t, s, rebind(d, fmt.Sprintf("UPDATE user_task_tenant_counters SET open_tasks = CASE WHEN stripe = 0 THEN %d ELSE 0 END WHERE tenant_id = ?", n)), args...)
		return
	}
	stmts, ok := tamperings[what]
	if !ok {
		t.Fatalf("the SQL harness has no statements for the tampering %q", what)
	}
	for _, q := range stmts {
		execSQL(t, s, rebind(d, q), args...)
	}
}

// countRecords counts the rows of table unit whose columns equal where's values (nil: NULL).
func countRecords(t *testing.T, s *repository.Store, d migrations.Dialect, unit string, where map[string]any) int {
	t.Helper()
	cols := make([]string, 0, len(where))
	for c := range where {
		cols = append(cols, c)
	}
	sort.Strings(cols)
	var conds []string
	var args []any
	for _, c := range cols {
		if where[c] == nil {
			conds = append(conds, c+" IS NULL")
			continue
		}
		conds = append(conds, c+" = ?")
		args = append(args, where[c])
	}
	q := "SELECT COUNT(*) FROM " + unit
	if len(conds) > 0 {
		q += " WHERE " + strings.Join(conds, " AND ")
	}
	return queryInt(t, s, rebind(d, q), args...)
}

func counterStripes(t *testing.T, s *repository.Store, d migrations.Dialect, tenant string) []int {
	t.Helper()
	db, err := s.DB()
	if err != nil {
		t.Fatal(err)
	}
	rows, err := db.Query(rebind(d, "SELECT open_tasks FROM user_task_tenant_counters WHERE tenant_id = ? ORDER BY stripe"), tenant)
	if err != nil {
		t.Fatalf("counter stripes: %v", err)
	}
	defer rows.Close()
	var out []int
	for rows.Next() {
		var n int
		if err := rows.Scan(&n); err != nil {
			t.Fatal(err)
		}
		out = append(out, n)
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

func execSQL(t *testing.T, s *repository.Store, q string, args ...any) {
	t.Helper()
	db, err := s.DB()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec(q, args...); err != nil {
		t.Fatalf("exec %q: %v", q, err)
	}
}

func queryInt(t *testing.T, s *repository.Store, q string, args ...any) int {
	t.Helper()
	db, err := s.DB()
	if err != nil {
		t.Fatal(err)
	}
	var n int
	if err := db.QueryRow(q, args...).Scan(&n); err != nil {
		t.Fatalf("query %q: %v", q, err)
	}
	return n
}

func explain(t *testing.T, s *repository.Store, q string, args ...any) string {
	t.Helper()
	db, err := s.DB()
	if err != nil {
		t.Fatal(err)
	}
	return strings.Join(QueryLines(t, db, q, args...), "\n")
}

// QueryLines runs q and returns each row as one line, its columns as text joined by spaces
// (how the suite and the scale test read query plans).
//
// A statement that names planner settings (repository.PlannerSettings: PostgreSQL's search
// probe) runs in a transaction that sets them first, as the store runs it.
func QueryLines(t *testing.T, db *sql.DB, q string, args ...any) []string {
	t.Helper()
	var query func(string, ...any) (*sql.Rows, error) = db.Query
	if settings := repository.PlannerSettings(strings.TrimPrefix(strings.TrimPrefix(
		strings.TrimPrefix(q, "EXPLAIN (ANALYZE, BUFFERS) "), "EXPLAIN "), "SELECT COUNT(*) FROM (")); len(settings) > 0 {
		tx, err := db.Begin()
		if err != nil {
			t.Fatal(err)
		}
		defer tx.Rollback() //nolint:errcheck // read only
		for _, kv := range settings {
			if _, err := tx.Exec("SELECT set_config($1, $2, true)", kv[0], kv[1]); err != nil {
				t.Fatal(err)
			}
		}
		query = tx.Query
	}
	rows, err := query(q, args...)
	if err != nil {
		t.Fatalf("%v\n%s", err, q)
	}
	defer rows.Close()
	cols, _ := rows.Columns()
	var out []string
	for rows.Next() {
		vals := make([]any, len(cols))
		ptrs := make([]any, len(cols))
		for i := range vals {
			ptrs[i] = &vals[i]
		}
		if err := rows.Scan(ptrs...); err != nil {
			t.Fatal(err)
		}
		parts := make([]string, len(vals))
		for i, v := range vals {
			if b, ok := v.([]byte); ok {
				v = string(b)
			}
			parts[i] = fmt.Sprint(v)
		}
		out = append(out, strings.Join(parts, " "))
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

// rebind turns ? placeholders into $n for PostgreSQL.
func rebind(d migrations.Dialect, q string) string {
	if d != migrations.Postgres {
		return q
	}
	var b strings.Builder
	n := 0
	for i := 0; i < len(q); i++ {
		if q[i] == '?' {
			n++
			fmt.Fprintf(&b, "$%d", n)
			continue
		}
		b.WriteByte(q[i])
	}
	return b.String()
}
