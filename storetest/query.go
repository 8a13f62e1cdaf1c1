package storetest

import (
	"fmt"
	"regexp"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"usertasks/models"
	"usertasks/store"
)

// testQueries checks the list query: authorization by scope inside the SQL, tenancy, every
// filter, every sort with keyset paging, cursor stability under inserts, totals, errors, and
// that list queries never read a protected column.
func testQueries(t *testing.T, h Harness) {
	t.Run("Scopes", func(t *testing.T) { testQueryScopes(t, h) })
	t.Run("Filters", func(t *testing.T) { testQueryFilters(t, h) })
	t.Run("Sorts", func(t *testing.T) { testQuerySorts(t, h) })
	t.Run("AvailableSorts", func(t *testing.T) { testQueryAvailableSorts(t, h) })
	t.Run("CursorStableUnderInserts", func(t *testing.T) { testQueryCursorStability(t, h) })
	t.Run("NeedsAttention", func(t *testing.T) { testQueryAttention(t, h) })
	t.Run("HealthFilters", func(t *testing.T) { testQueryHealthFilters(t, h) })
	t.Run("AssigneeFilter", func(t *testing.T) { testQueryAssignee(t, h) })
	t.Run("CursorBoundToFilters", func(t *testing.T) { testQueryCursorFilters(t, h) })
	t.Run("Totals", func(t *testing.T) { testQueryTotals(t, h) })
	t.Run("SearchCorpus", func(t *testing.T) { testQuerySearchCorpus(t, h) })
	t.Run("SearchPaths", func(t *testing.T) { testQuerySearchPaths(t, h) })
	t.Run("ShortSearchWindow", func(t *testing.T) { testQueryShortSearchWindow(t, h) })
	t.Run("CommonSearchWindow", func(t *testing.T) { testQueryCommonSearchWindow(t, h) })
	t.Run("CommonSearchChunks", func(t *testing.T) { testQueryCommonSearchChunks(t, h) }) // query_search_chunks.go
}

// queryActor is a person of tenant with the given group claims (default provider).
func queryActor(tenant, id string, manager bool, groups ...models.ParticipantRef) models.Actor {
	return models.Actor{Tenant: tenant, Subject: User(tenant, id), Groups: groups, DisplayName: "User " + id,
		Permissions: []string{"user-tasks:*"}, Manager: manager}
}

// queryPages follows NextCursor from the first page to the last and returns every item.
func queryPages(t *testing.T, s store.Store, f models.TaskFilter) []models.Task {
	t.Helper()
	var out []models.Task
	for pages := 0; ; pages++ {
		if pages > 1000 {
			t.Fatalf("query %+v: more than 1000 pages", f)
		}
		page, err := s.Query(ctx(t), f)
		if err != nil {
			t.Fatalf("query scope %s sort %s desc %v limit %d: %v", f.Scope, f.Sort, f.Descending, f.Limit, err)
		}
		if f.Limit > 0 && len(page.Items) > f.Limit {
			t.Fatalf("page of %d items, limit %d", len(page.Items), f.Limit)
		}
		out = append(out, page.Items...)
		if page.NextCursor == "" {
			return out
		}
		if len(page.Items) == 0 {
			t.Fatalf("empty page with a next cursor")
		}
		f.Cursor = page.NextCursor
	}
}

func queryIDs(items []models.Task) []string {
	ids := make([]string, len(items))
	for i, it := range items {
		ids[i] = it.ID
	}
	return ids
}

// queryNames maps items back to fixture names, sorted, for readable set comparisons.
func queryNames(items []models.Task, names map[string]string) []string {
	out := make([]string, 0, len(items))
	for _, it := range items {
		n, ok := names[it.ID]
		if !ok {
			n = "unknown:" + it.Tenant + "/" + it.ID
		}
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}

func queryInt(n int) *int { return &n }

func queryTime(t time.Time) *time.Time { return &t }

// queryRecorder keeps the statements a store runs (Options.OnSQL).
type queryRecorder struct {
	mu   sync.Mutex
	stmt []string
}

func (r *queryRecorder) record(sql string) {
	r.mu.Lock()
	r.stmt = append(r.stmt, sql)
	r.mu.Unlock()
}

// pastFirstPage is f with the cursor of its first page; the case fails when f lists one page
// only, as a case about the cursor then checks nothing.
func pastFirstPage(t *testing.T, s store.Store, f models.TaskFilter) models.TaskFilter {
	t.Helper()
	first, err := s.Query(ctx(t), f)
	if err != nil {
		t.Fatalf("query: %v", err)
	}
	if first.NextCursor == "" {
		t.Fatalf("one page only: the case needs a cursor")
	}
	f.Cursor = first.NextCursor
	return f
}

// pageStatements reads f's first page and, when there is one, the page after its cursor, and
// returns the statements rec recorded that keep accepts and how many tasks the pages listed.
func pageStatements(t *testing.T, s store.Store, rec *queryRecorder, f models.TaskFilter, keep func(string) bool) (stmts []string, listed int) {
	t.Helper()
	for page := 0; page < 2; page++ {
		rec.reset()
		got, err := s.Query(ctx(t), f)
		if err != nil {
			t.Fatalf("query: %v", err)
		}
		listed += len(got.Items)
		for _, stmt := range rec.statements() {
			if keep(stmt) {
				stmts = append(stmts, stmt)
			}
		}
		if got.NextCursor == "" {
			break
		}
		f.Cursor = got.NextCursor
	}
	return stmts, listed
}

// readsUserTasks keeps the statements that read user_tasks.
func readsUserTasks(stmt string) bool { return strings.Contains(strings.ToUpper(stmt), "USER_TASKS") }

func (r *queryRecorder) reset() {
	r.mu.Lock()
	r.stmt = nil
	r.mu.Unlock()
}

func (r *queryRecorder) statements() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]string(nil), r.stmt...)
}

// queryFixture is a task of the scope matrix and the scopes of "me" (and the manager scopes)
// that must list it.
type queryFixture struct {
	name   string
	opts   TaskOpts
	scopes []models.Scope // personal scopes of t1/me that list the task
	attn   bool           // needs-attention lists it
	actBy  *models.ParticipantRef
}

func testQueryScopes(t *testing.T, h Harness) {
	rec := &queryRecorder{}
	s := h.open(t, Options{OnSQL: rec.record})

	me, bob := User("t1", "me"), User("t1", "bob")
	other := User("t1", "other")
	idp2g7 := models.ParticipantRef{Tenant: "t1", Provider: "idp2", Type: models.GroupParticipant, ID: "g7"}
	actor := queryActor("t1", "me", false, Group("t1", "g1"), Group("t1", "g2"), idp2g7, Group("t2", "g3"))
	boss := queryActor("t1", "boss", true)
	past, future := time.Now().UTC().Add(-2*time.Hour), time.Now().UTC().Add(48*time.Hour)
	recent := time.Now().UTC()
	blocking := models.Health{Severity: models.SeverityBlocking, Code: models.HealthFormResolutionFailed, Message: "form"}
	advisory := models.Health{Severity: models.SeverityAdvisory, Code: models.HealthNoParticipants, Message: "none"}
	avail, asg, hist := models.ScopeAvailable, models.ScopeAssigned, models.ScopeHistory

	fixtures := []queryFixture{
		{name: "directUser", opts: TaskOpts{CandidateUsers: []string{"me"}}, scopes: []models.Scope{avail}},
		{name: "liveGroup", opts: TaskOpts{CandidateGroups: []string{"g1"}}, scopes: []models.Scope{avail}},
		{name: "liveSecondGroup", opts: TaskOpts{CandidateGroups: []string{"gx", "g2"}}, scopes: []models.Scope{avail}},
		{name: "snapshotMember", opts: TaskOpts{Mode: models.MembershipSnapshot, SnapshotMembers: map[string][]string{"g5": {"me", "bob"}}},
			scopes: []models.Scope{avail}},
		{name: "snapshotGroupClaimOnly", opts: TaskOpts{Mode: models.MembershipSnapshot, CandidateGroups: []string{"g1"},
			SnapshotMembers: map[string][]string{"g1": {"bob"}}}},
		{name: "excludedMe", opts: TaskOpts{CandidateUsers: []string{"me"}, CandidateGroups: []string{"g1"}, Excluded: []string{"me"}}},
		{name: "excludedSomeoneElse", opts: TaskOpts{CandidateGroups: []string{"g1"}, Excluded: []string{"bob"}}, scopes: []models.Scope{avail}},
		{name: "otherCandidate", opts: TaskOpts{CandidateUsers: []string{"bob"}, CandidateGroups: []string{"g9"}}},
		{name: "groupOfOtherProvider", opts: TaskOpts{CandidateGroups: []string{"g7"}}},
		{name: "groupClaimOfOtherTenant", opts: TaskOpts{CandidateGroups: []string{"g3"}}},
		{name: "unassignedNoParticipants", opts: TaskOpts{Health: advisory}, attn: true},
		{name: "assignedMe", opts: TaskOpts{Assignee: &me}, scopes: []models.Scope{asg}},
		{name: "assignedMeAdvisory", opts: TaskOpts{Assignee: &me, Health: advisory}, scopes: []models.Scope{asg}, attn: true},
		{name: "assignedOtherWithMeCandidate", opts: TaskOpts{Assignee: &bob, CandidateUsers: []string{"me"}}},
		{name: "blockingAvailable", opts: TaskOpts{CandidateUsers: []string{"me"}, Health: blocking}, attn: true},
		{name: "blockingAssignedMe", opts: TaskOpts{Assignee: &me, Health: blocking}, attn: true},
		{name: "myFreshCompleting", opts: TaskOpts{Assignee: &me, Status: models.StatusCompleting, TransitionedAt: &recent},
			scopes: []models.Scope{asg}},
		{name: "staleCancelling", opts: TaskOpts{Assignee: &bob, Status: models.StatusCancelling, TransitionedAt: &past}, attn: true},
		{name: "completedByMe", opts: TaskOpts{Assignee: &me, Status: models.StatusCompleted, CompletedBy: &me}, scopes: []models.Scope{hist}},
		{name: "cancelledWhereIActed", opts: TaskOpts{Assignee: &bob, Status: models.StatusCancelled, CompletedBy: &bob},
			scopes: []models.Scope{hist}, actBy: &me},
		{name: "terminalNotMine", opts: TaskOpts{Assignee: &bob, Status: models.StatusCompleted, CompletedBy: &bob}, actBy: &other},
		{name: "blockingCompletedByMe", opts: TaskOpts{Assignee: &me, Status: models.StatusCompleted, CompletedBy: &me, Health: blocking}},
		{name: "openWhereIActed", opts: TaskOpts{Assignee: &bob}, actBy: &me},
		{name: "overdueFlag", opts: TaskOpts{Assignee: &bob, IsOverdue: true}, attn: true},
		{name: "overdueByDueDate", opts: TaskOpts{Assignee: &bob, DueAt: &past}, attn: true},
		{name: "dueLater", opts: TaskOpts{Assignee: &bob, DueAt: &future}},
		{name: "timedOutOverdue", opts: TaskOpts{Assignee: &bob, Status: models.StatusTimedOut, CompletedBy: &bob, IsOverdue: true, DueAt: &past}},
	}
	// The same people and groups in tenant t2: never listed in t1.
	me2, bob2 := User("t2", "me"), User("t2", "bob")
	others := []queryFixture{
		{name: "t2/directUser", opts: TaskOpts{Tenant: "t2", CandidateUsers: []string{"me"}, CandidateGroups: []string{"g1"}}, scopes: []models.Scope{avail}},
		{name: "t2/assignedMe", opts: TaskOpts{Tenant: "t2", Assignee: &me2}, scopes: []models.Scope{asg}},
		{name: "t2/completedByMe", opts: TaskOpts{Tenant: "t2", Assignee: &me2, Status: models.StatusCompleted, CompletedBy: &me2}, scopes: []models.Scope{hist}},
		{name: "t2/actedByMe", opts: TaskOpts{Tenant: "t2", Assignee: &bob2, Status: models.StatusCompleted, CompletedBy: &bob2}, scopes: []models.Scope{hist}, actBy: &me2},
		{name: "t2/blocking", opts: TaskOpts{Tenant: "t2", Assignee: &bob2, Health: blocking}, attn: true},
	}

	names := map[string]string{}
	want := map[string]map[models.Scope][]string{"t1": {}, "t2": {}}
	for _, fx := range append(append([]queryFixture{}, fixtures...), others...) {
		fx.opts.Instructions, fx.opts.Data = "secret instructions", `{"secret":true}`
		task := CreateTask(t, s, fx.opts)
		names[task.ID] = fx.name
		if fx.actBy != nil {
			actor := *fx.actBy
			_, err := s.AppendEvent(ctx(t), task.Tenant, task.ID, func(now time.Time, cur models.Task) (models.Event, error) {
				return models.Event{ID: models.NewID(), Tenant: cur.Tenant, TaskID: cur.ID, Seq: cur.LastEventSeq + 1, Revision: cur.Revision,
					Type: models.EventFieldRevealed, OccurredAt: now, Actor: &actor}, nil
			})
			if err != nil {
				t.Fatalf("append event to %s: %v", fx.name, err)
			}
		}
		tenant := task.Tenant
		for _, sc := range fx.scopes {
			want[tenant][sc] = append(want[tenant][sc], fx.name)
		}
		want[tenant][models.ScopeAll] = append(want[tenant][models.ScopeAll], fx.name)
		if fx.attn {
			want[tenant][models.ScopeNeedsAttention] = append(want[tenant][models.ScopeNeedsAttention], fx.name)
		}
	}
	for _, byScope := range want {
		for _, list := range byScope {
			sort.Strings(list)
		}
	}

	check := func(t *testing.T, tenant string, who models.Actor, scope models.Scope) []models.Task {
		t.Helper()
		items := queryPages(t, s, models.TaskFilter{Tenant: tenant, Scope: scope, Actor: who, Sort: models.SortCreated, Descending: true, Limit: 4})
		if got, want := queryNames(items, names), want[tenant][scope]; strings.Join(got, ",") != strings.Join(want, ",") {
			t.Fatalf("tenant %s scope %s as %s lists\n got  %v\n want %v", tenant, scope, who.Subject.ID, got, want)
		}
		for _, it := range items {
			if it.Tenant != tenant {
				t.Fatalf("item %s of tenant %s listed in tenant %s", names[it.ID], it.Tenant, tenant)
			}
			if it.Protected.Instructions != "" || it.Protected.Data != nil || it.Protected.Form != nil || it.Protected.CompletionData != nil {
				t.Fatalf("item %s carries protected content: %+v", names[it.ID], it.Protected)
			}
			if len(it.Assignment.Candidates) != 0 || len(it.Assignment.Exclusions) != 0 {
				t.Fatalf("item %s carries candidate identities", names[it.ID])
			}
		}
		return items
	}

	for _, tenant := range []string{"t1", "t2"} {
		person := actor
		manager := boss
		if tenant == "t2" {
			person = queryActor("t2", "me", false, Group("t2", "g1"))
			manager = queryActor("t2", "boss", true)
		}
		for _, scope := range []models.Scope{asg, avail, hist} {
			t.Run(tenant+"/"+string(scope)+"ListsExactlyTheAuthorizedRows", func(t *testing.T) { check(t, tenant, person, scope) })
		}
		for _, scope := range []models.Scope{models.ScopeAll, models.ScopeNeedsAttention} {
			t.Run(tenant+"/"+string(scope)+"ListsForManagers", func(t *testing.T) { check(t, tenant, manager, scope) })
		}
	}

	t.Run("DefaultScopeIsAssigned", func(t *testing.T) {
		page, err := s.Query(ctx(t), models.TaskFilter{Tenant: "t1", Actor: actor, Descending: true})
		if err != nil {
			t.Fatalf("query: %v", err)
		}
		if got, want := queryNames(page.Items, names), want["t1"][asg]; strings.Join(got, ",") != strings.Join(want, ",") {
			t.Fatalf("default scope lists %v, want the assigned scope %v", got, want)
		}
	})

	t.Run("CandidateSummaryIsCounts", func(t *testing.T) {
		items := queryPages(t, s, models.TaskFilter{Tenant: "t1", Scope: models.ScopeAll, Actor: boss})
		for _, it := range items {
			if names[it.ID] == "liveSecondGroup" {
				if got, want := it.CandidateSummary, (models.CandidateSummary{Users: 0, Groups: 2}); got != want {
					t.Fatalf("candidate summary %+v, want %+v", got, want)
				}
				return
			}
		}
		t.Fatalf("liveSecondGroup not listed")
	})

	t.Run("StaleAfterIsTheThreshold", func(t *testing.T) {
		f := models.TaskFilter{Tenant: "t1", Scope: models.ScopeNeedsAttention, Actor: boss, StaleAfter: 3 * time.Hour}
		for _, it := range queryPages(t, s, f) {
			if names[it.ID] == "staleCancelling" {
				t.Fatalf("a task transitional for 2h is listed with a 3h threshold")
			}
		}
	})

	t.Run("Totals", func(t *testing.T) {
		for _, c := range []struct {
			who   models.Actor
			scope models.Scope
		}{{actor, asg}, {actor, avail}, {actor, hist}, {boss, models.ScopeAll}, {boss, models.ScopeNeedsAttention}} {
			f := models.TaskFilter{Tenant: "t1", Scope: c.scope, Actor: c.who, Limit: 2, IncludeTotal: true}
			first, err := s.Query(ctx(t), f)
			if err != nil {
				t.Fatalf("scope %s: %v", c.scope, err)
			}
			if first.Total == nil || *first.Total != len(want["t1"][c.scope]) {
				t.Fatalf("scope %s total %v, want %d", c.scope, first.Total, len(want["t1"][c.scope]))
			}
			if first.NextCursor == "" {
				continue
			}
			f.Cursor = first.NextCursor
			second, err := s.Query(ctx(t), f)
			if err != nil {
				t.Fatalf("scope %s second page: %v", c.scope, err)
			}
			if second.Total == nil || *second.Total != *first.Total {
				t.Fatalf("scope %s total on the second page %v, want %d (the cursor must not change it)", c.scope, second.Total, *first.Total)
			}
		}
		page, err := s.Query(ctx(t), models.TaskFilter{Tenant: "t1", Scope: avail, Actor: actor})
		if err != nil {
			t.Fatal(err)
		}
		if page.Total != nil {
			t.Fatalf("total %d returned without IncludeTotal", *page.Total)
		}
	})

	t.Run("NonManagerAllIsForbidden", func(t *testing.T) {
		_, err := s.Query(ctx(t), models.TaskFilter{Tenant: "t1", Scope: models.ScopeAll, Actor: actor})
		wantIs(t, err, models.ErrForbidden)
	})
	t.Run("NonManagerNeedsAttentionIsForbidden", func(t *testing.T) {
		_, err := s.Query(ctx(t), models.TaskFilter{Tenant: "t1", Scope: models.ScopeNeedsAttention, Actor: actor})
		wantIs(t, err, models.ErrForbidden)
	})
	t.Run("GuestIsForbidden", func(t *testing.T) {
		guest := models.Actor{Tenant: "t1", Subject: models.GuestRef("t1", "inv-1"), Guest: &models.GuestGrant{TaskID: "x"}}
		_, err := s.Query(ctx(t), models.TaskFilter{Tenant: "t1", Scope: asg, Actor: guest})
		wantIs(t, err, models.ErrForbidden)
	})
	t.Run("ActorOfAnotherTenantIsForbidden", func(t *testing.T) {
		_, err := s.Query(ctx(t), models.TaskFilter{Tenant: "t2", Scope: asg, Actor: actor})
		wantIs(t, err, models.ErrForbidden)
	})
	t.Run("UnknownScopeIsInvalid", func(t *testing.T) {
		_, err := s.Query(ctx(t), models.TaskFilter{Tenant: "t1", Scope: "everything", Actor: boss})
		wantCode(t, err, models.CodeValidationFailed)
	})
	t.Run("UnknownSortStatusOrDueIsInvalid", func(t *testing.T) {
		for _, f := range []models.TaskFilter{
			{Tenant: "t1", Scope: models.ScopeAll, Actor: boss, Sort: "popularity"},
			{Tenant: "t1", Scope: models.ScopeAll, Actor: boss, Statuses: []models.Status{"Done"}},
			{Tenant: "t1", Scope: models.ScopeAll, Actor: boss, Due: "tomorrow"},
		} {
			_, err := s.Query(ctx(t), f)
			wantCode(t, err, models.CodeValidationFailed)
		}
	})
	t.Run("MalformedCursorIsMalformedRequest", func(t *testing.T) {
		f := models.TaskFilter{Tenant: "t1", Scope: models.ScopeAll, Actor: boss, Sort: models.SortTitle, Limit: 1}
		page, err := s.Query(ctx(t), f)
		if err != nil || page.NextCursor == "" {
			t.Fatalf("first page: %v (cursor %q)", err, page.NextCursor)
		}
		for name, c := range map[string]models.TaskFilter{
			"Garbage":        {Tenant: "t1", Scope: models.ScopeAll, Actor: boss, Sort: models.SortTitle, Cursor: "not a cursor!"},
			"Truncated":      {Tenant: "t1", Scope: models.ScopeAll, Actor: boss, Sort: models.SortTitle, Cursor: page.NextCursor[:len(page.NextCursor)/2]},
			"OtherSort":      {Tenant: "t1", Scope: models.ScopeAll, Actor: boss, Sort: models.SortCreated, Cursor: page.NextCursor},
			"OtherDirection": {Tenant: "t1", Scope: models.ScopeAll, Actor: boss, Sort: models.SortTitle, Descending: true, Cursor: page.NextCursor},
		} {
			_, err := s.Query(ctx(t), c)
			if got := models.ErrorCode(err); got != models.CodeMalformedRequest {
				t.Fatalf("%s cursor: error %v has code %q, want %q", name, err, got, models.CodeMalformedRequest)
			}
		}
	})
	t.Run("LimitIsDefaultedAndClamped", func(t *testing.T) {
		for i := 0; i < models.MaxPageSize+1; i++ {
			CreateTask(t, s, TaskOpts{Tenant: "t3"})
		}
		m := queryActor("t3", "boss", true)
		for _, c := range []struct{ limit, want int }{{0, models.DefaultPageSize}, {-5, models.DefaultPageSize},
			{models.MaxPageSize + 1000, models.MaxPageSize}, {models.MaxPageSize + 1, models.MaxPageSize}} {
			page, err := s.Query(ctx(t), models.TaskFilter{Tenant: "t3", Scope: models.ScopeAll, Actor: m, Limit: c.limit})
			if err != nil || len(page.Items) != c.want || page.NextCursor == "" {
				t.Fatalf("limit %d: got %d items, cursor %q, err %v; want %d items and a cursor", c.limit, len(page.Items), page.NextCursor, err, c.want)
			}
		}
		page, err := s.Query(ctx(t), models.TaskFilter{Tenant: "t3", Scope: models.ScopeAll, Actor: m, Limit: 200})
		if err != nil {
			t.Fatal(err)
		}
		page, err = s.Query(ctx(t), models.TaskFilter{Tenant: "t3", Scope: models.ScopeAll, Actor: m, Limit: 200, Cursor: page.NextCursor})
		if err != nil || len(page.Items) != 1 || page.NextCursor != "" {
			t.Fatalf("the last page: got %d items, cursor %q, err %v; want 1 item and no cursor", len(page.Items), page.NextCursor, err)
		}
	})

	t.Run("SelectsNoProtectedColumn", func(t *testing.T) {
		h.needSQL(t, "the case reads the SQL statements of the lists")
		filters := []models.TaskFilter{
			{Tenant: "t1", Scope: asg, Actor: actor, IncludeTotal: true},
			{Tenant: "t1", Scope: avail, Actor: actor, IncludeTotal: true, Search: "task", Tag: "x"},
			{Tenant: "t1", Scope: hist, Actor: actor, Sort: models.SortCompleted},
			{Tenant: "t1", Scope: models.ScopeAll, Actor: boss, Sort: models.SortDue, Limit: 2, IncludeTotal: true},
			{Tenant: "t1", Scope: models.ScopeNeedsAttention, Actor: boss, Due: models.DueOverdue},
		}
		for _, f := range filters {
			rec.reset()
			queryPages(t, s, f)
			selects := 0
			for _, stmt := range rec.statements() {
				upper := strings.ToUpper(stmt)
				if !strings.Contains(upper, "SELECT") || !strings.Contains(upper, "USER_TASKS") {
					continue
				}
				selects++
				if strings.Contains(strings.ToLower(stmt), "_enc") || queryStar.MatchString(stmt) {
					t.Fatalf("scope %s: a list statement reads more than the safe columns:\n%s", f.Scope, stmt)
				}
			}
			if selects == 0 {
				t.Fatalf("scope %s: no SELECT of user_tasks was recorded", f.Scope)
			}
		}
	})
}

// queryStar finds a wildcard select list (SELECT *, t.*), which would read protected columns.
var queryStar = regexp.MustCompile(`(?i)(SELECT\s+(DISTINCT\s+)?\*|\.\*)`)

// queryAt is a settable database clock: the real one until set.
type queryAt struct{ at atomic.Pointer[time.Time] }

func (c *queryAt) now(db time.Time) time.Time {
	if at := c.at.Load(); at != nil {
		return *at
	}
	return db
}

func (c *queryAt) set(t time.Time) { c.at.Store(&t) }

func testQueryFilters(t *testing.T, h Harness) {
	// Wednesday noon, UTC: the ISO week runs from Monday 10 June to Sunday 16 June 2030.
	now := time.Date(2030, 6, 12, 12, 0, 0, 0, time.UTC)
	if now.Weekday() != time.Wednesday {
		t.Fatalf("fixture clock %v is not a Wednesday", now)
	}
	clock := &queryAt{}
	clock.set(now)
	s := h.open(t, Options{Clock: clock.now})
	boss := queryActor("t1", "boss", true)
	bob := User("t1", "bob")
	day := time.Date(2030, 6, 12, 0, 0, 0, 0, time.UTC)

	type fx struct {
		name string
		opts TaskOpts
	}
	fixtures := []fx{
		{"alpha", TaskOpts{Title: "Alpha 100% sure_thing", Priority: queryInt(10), DueAt: queryTime(now.Add(-24 * time.Hour)), Assignee: &bob,
			Tags: []string{"Urgent", "Finance"}, WorkflowDef: "invoice", WorkflowInst: "inv-1", Reference: "REF-1", TaskType: "approve"}},
		{"beta", TaskOpts{Title: "Beta sureXthing", Priority: queryInt(50), DueAt: queryTime(day.Add(18 * time.Hour)), Assignee: &bob,
			Tags: []string{"urgent-ish"}, WorkflowDef: "invoice", WorkflowInst: "inv-2", Reference: "REF-2", TaskType: "review",
			Summary: "contains the NEEDLE here"}},
		{"gamma", TaskOpts{Title: "Gamma [x] wow!bang", Priority: queryInt(90), DueAt: queryTime(day.AddDate(0, 0, -2).Add(8 * time.Hour)),
			Assignee: &bob, Status: models.StatusCompleted, CompletedBy: &bob, TaskType: "approve"}},
		{"delta", TaskOpts{Title: "Delta 100 percent", Priority: queryInt(100), DueAt: queryTime(day.AddDate(0, 0, 4).Add(23 * time.Hour)), Assignee: &bob}},
		{"epsilon", TaskOpts{Title: "Epsilon x]", Priority: queryInt(0), DueAt: queryTime(day.AddDate(0, 0, 5)), IsOverdue: true, Assignee: &bob}},
		{"zeta", TaskOpts{Title: "Zeta", Priority: queryInt(30), Reference: "ref-1", Summary: `back\slash path`, CandidateUsers: []string{"bob"}}},
		{"eta", TaskOpts{Title: "Eta", Priority: queryInt(70), DueAt: queryTime(now.Add(-24 * time.Hour)), Assignee: &bob,
			Status: models.StatusCompleting, TransitionedAt: &now}},
		{"theta", TaskOpts{Title: "Theta", Priority: queryInt(40), DueAt: queryTime(day.AddDate(0, 0, 1))}},
		{"iota", TaskOpts{Title: "Iota", Priority: queryInt(20), DueAt: queryTime(day.AddDate(0, 0, -2).Add(-time.Microsecond)), Assignee: &bob}},
	}
	names := map[string]string{}
	for _, f := range fixtures {
		task := CreateTask(t, s, f.opts)
		names[task.ID] = f.name
	}
	// The same values in another tenant never match.
	CreateTask(t, s, TaskOpts{Tenant: "t2", Title: "Alpha 100% sure_thing", Tags: []string{"urgent"}, WorkflowDef: "invoice",
		WorkflowInst: "inv-1", Reference: "REF-1", TaskType: "approve", DueAt: queryTime(day.Add(18 * time.Hour))})

	from, to := day, day.AddDate(0, 0, 4).Add(23*time.Hour)
	cases := []struct {
		name string
		edit func(f *models.TaskFilter)
		want []string
	}{
		{"Statuses", func(f *models.TaskFilter) {
			f.Statuses = []models.Status{models.StatusCompleted, models.StatusCompleting}
		}, []string{"eta", "gamma"}},
		{"PriorityFrom", func(f *models.TaskFilter) { f.PriorityFrom = queryInt(70) }, []string{"delta", "eta", "gamma"}},
		{"PriorityRange", func(f *models.TaskFilter) { f.PriorityFrom, f.PriorityTo = queryInt(20), queryInt(50) }, []string{"beta", "iota", "theta", "zeta"}},
		{"DueOverdueIsOpenAndPastOrFlagged", func(f *models.TaskFilter) { f.Due = models.DueOverdue }, []string{"alpha", "epsilon", "iota"}},
		{"DueTodayIsTheUTCDay", func(f *models.TaskFilter) { f.Due = models.DueToday }, []string{"beta"}},
		{"DueThisWeekIsMondayToSunday", func(f *models.TaskFilter) { f.Due = models.DueThisWeek }, []string{"alpha", "beta", "delta", "eta", "gamma", "theta"}},
		{"NoDueDate", func(f *models.TaskFilter) { f.Due = models.DueNoDueDate }, []string{"zeta"}},
		{"DueFromTo", func(f *models.TaskFilter) { f.DueFrom, f.DueTo = &from, &to }, []string{"beta", "delta", "theta"}},
		{"WorkflowDefinition", func(f *models.TaskFilter) { f.WorkflowDefinitionID = "invoice" }, []string{"alpha", "beta"}},
		{"WorkflowInstance", func(f *models.TaskFilter) { f.WorkflowInstanceID = "inv-2" }, []string{"beta"}},
		{"ReferenceIsExact", func(f *models.TaskFilter) { f.Reference = "REF-1" }, []string{"alpha"}},
		{"TaskType", func(f *models.TaskFilter) { f.TaskType = "approve" }, []string{"alpha", "gamma"}},
		{"TagIsCaseInsensitive", func(f *models.TaskFilter) { f.Tag = "  URGENT " }, []string{"alpha"}},
		{"TagIsWhole", func(f *models.TaskFilter) { f.Tag = "urg" }, nil},
		{"TagIsNotJSONText", func(f *models.TaskFilter) { f.Tag = `urgent","finance` }, nil},
		{"SearchPercentIsLiteral", func(f *models.TaskFilter) { f.Search = "100%" }, []string{"alpha"}},
		{"SearchUnderscoreIsLiteral", func(f *models.TaskFilter) { f.Search = "e_t" }, []string{"alpha"}},
		{"SearchBracketIsLiteral", func(f *models.TaskFilter) { f.Search = "[x]" }, []string{"gamma"}},
		{"SearchEscapeCharIsLiteral", func(f *models.TaskFilter) { f.Search = "w!b" }, []string{"gamma"}},
		{"SearchBackslashIsLiteral", func(f *models.TaskFilter) { f.Search = `k\s` }, []string{"zeta"}},
		{"SearchIsCaseInsensitive", func(f *models.TaskFilter) { f.Search = "needle" }, []string{"beta"}},
		{"SearchCoversReferenceAndTags", func(f *models.TaskFilter) { f.Search = "ref-2" }, []string{"beta"}},
		{"SearchCoversTags", func(f *models.TaskFilter) { f.Search = "URGENT" }, []string{"alpha", "beta"}},
		{"Combined", func(f *models.TaskFilter) { f.WorkflowDefinitionID, f.PriorityTo = "invoice", queryInt(20) }, []string{"alpha"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			f := models.TaskFilter{Tenant: "t1", Scope: models.ScopeAll, Actor: boss, IncludeTotal: true, Limit: 2}
			c.edit(&f)
			items := queryPages(t, s, f)
			got := queryNames(items, names)
			want := append([]string{}, c.want...)
			sort.Strings(want)
			if strings.Join(got, ",") != strings.Join(want, ",") {
				t.Fatalf("got %v, want %v", got, want)
			}
			page, err := s.Query(ctx(t), f)
			if err != nil {
				t.Fatal(err)
			}
			if page.Total == nil || *page.Total != len(want) {
				t.Fatalf("total %v, want %d", page.Total, len(want))
			}
		})
	}
}

// queryLess reports whether a comes before b in the order of key: the value in the
// direction, NULLs last in both directions, then id in the direction.
func queryLess(a, b models.Task, key models.SortKey, desc bool) bool {
	cmpTime := func(x, y *time.Time) (int, bool) { // (order, decided by nulls)
		switch {
		case x == nil && y == nil:
			return 0, false
		case x == nil:
			return 1, true
		case y == nil:
			return -1, true
		}
		return x.Compare(*y), false
	}
	var c int
	nulls := false
	switch key {
	case models.SortCreated:
		c = a.CreatedAt.Compare(b.CreatedAt)
	case models.SortUpdated:
		c = a.UpdatedAt.Compare(b.UpdatedAt)
	case models.SortDue:
		c, nulls = cmpTime(a.DueAt, b.DueAt)
	case models.SortCompleted:
		c, nulls = cmpTime(a.CompletedAt, b.CompletedAt)
	case models.SortPriority:
		c = a.Priority - b.Priority
	case models.SortTitle:
		c = strings.Compare(a.Title, b.Title)
	}
	if nulls {
		return c < 0
	}
	if c == 0 {
		c = strings.Compare(a.ID, b.ID)
	}
	if desc {
		return c > 0
	}
	return c < 0
}

// querySorted fails unless items are strictly in the order of key (no duplicates).
func querySorted(t *testing.T, items []models.Task, key models.SortKey, desc bool) {
	t.Helper()
	for i := 1; i < len(items); i++ {
		if !queryLess(items[i-1], items[i], key, desc) {
			a, b := items[i-1], items[i]
			t.Fatalf("sort %s desc=%v: item %d (%s %q prio %d due %v done %v) is not before item %d (%s %q prio %d due %v done %v)",
				key, desc, i-1, a.ID, a.Title, a.Priority, a.DueAt, a.CompletedAt, i, b.ID, b.Title, b.Priority, b.DueAt, b.CompletedAt)
		}
	}
}

func testQuerySorts(t *testing.T, h Harness) {
	clock := &queryAt{}
	s := h.open(t, Options{Clock: clock.now})
	boss := queryActor("t1", "boss", true)
	bob := User("t1", "bob")
	base := time.Date(2030, 1, 7, 9, 0, 0, 0, time.UTC)
	words := []string{"delta", "alpha", "echo", "bravo", "charlie"}
	const n = 25
	var ids []string
	for i := 0; i < n; i++ {
		clock.set(base.Add(time.Duration(i/4) * time.Second)) // groups of four share created_at
		o := TaskOpts{Title: words[i%len(words)], Priority: queryInt(i % 3 * 10), Assignee: &bob}
		if i%4 != 0 {
			o.DueAt = queryTime(base.Add(time.Duration(i%3) * time.Hour))
		}
		if i%3 == 0 {
			o.Status, o.CompletedBy = models.StatusCompleted, &bob
		}
		ids = append(ids, CreateTask(t, s, o).ID)
	}
	for i, id := range ids[:8] {
		clock.set(base.Add(time.Hour + time.Duration(i%2)*time.Second)) // ties in updated_at too
		if _, err := s.Mutate(ctx(t), "t1", id, "", Bump("", "")); err != nil {
			t.Fatalf("bump: %v", err)
		}
	}
	// Another tenant's rows never page into this one.
	for i := 0; i < 3; i++ {
		CreateTask(t, s, TaskOpts{Tenant: "t2", Title: "alpha"})
	}

	for _, key := range models.SortKeys {
		for _, desc := range []bool{false, true} {
			t.Run(fmt.Sprintf("%s/desc=%v", key, desc), func(t *testing.T) {
				f := models.TaskFilter{Tenant: "t1", Scope: models.ScopeAll, Actor: boss, Sort: key, Descending: desc, Limit: models.MaxPageSize}
				page, err := s.Query(ctx(t), f)
				if err != nil {
					t.Fatalf("one big page: %v", err)
				}
				if len(page.Items) != n || page.NextCursor != "" {
					t.Fatalf("one big page has %d items and cursor %q, want %d and none", len(page.Items), page.NextCursor, n)
				}
				querySorted(t, page.Items, key, desc)
				want := queryIDs(page.Items)
				for _, limit := range []int{1, 2, 3, 7} {
					f.Limit = limit
					got := queryIDs(queryPages(t, s, f))
					if strings.Join(got, ",") != strings.Join(want, ",") {
						t.Fatalf("paging with limit %d yields\n %v\nwant the big page's order\n %v", limit, got, want)
					}
				}
			})
		}
	}
}

func testQueryCursorStability(t *testing.T, h Harness) {
	s := h.open(t, Options{})
	boss := queryActor("t1", "boss", true)
	letters := "kcmaqgexsiuo"
	var seeded []string
	for i, r := range letters {
		prio := i * 37 % 101
		o := TaskOpts{Title: "title " + string(r), Priority: &prio}
		if i%3 != 0 {
			o.DueAt = queryTime(time.Now().UTC().Add(time.Duration(i) * time.Hour))
		}
		seeded = append(seeded, CreateTask(t, s, o).ID)
	}
	inserted := 0
	type sortCase struct {
		key  models.SortKey
		desc bool
	}
	var cases []sortCase
	for _, key := range models.SortKeys {
		cases = append(cases, sortCase{key, false}, sortCase{key, true})
	}
	for _, c := range cases {
		t.Run(fmt.Sprintf("%s/desc=%v", c.key, c.desc), func(t *testing.T) {
			f := models.TaskFilter{Tenant: "t1", Scope: models.ScopeAll, Actor: boss, Sort: c.key, Descending: c.desc, Limit: 3}
			var got []models.Task
			for pages := 0; ; pages++ {
				if pages > 100 {
					t.Fatalf("more than 100 pages")
				}
				page, err := s.Query(ctx(t), f)
				if err != nil {
					t.Fatalf("page %d: %v", pages, err)
				}
				got = append(got, page.Items...)
				if page.NextCursor == "" {
					break
				}
				f.Cursor = page.NextCursor
				if pages >= 3 {
					continue // rows that sort after the cursor would otherwise keep the listing going
				}
				// Rows inserted between pages, sorting before, between and after the cursor.
				for _, title := range []string{"title a", "title n", "title z"} {
					inserted++
					prio := inserted * 13 % 101
					o := TaskOpts{Title: title, Priority: &prio}
					if inserted%2 == 0 {
						o.DueAt = queryTime(time.Now().UTC().Add(time.Duration(inserted%13) * time.Hour))
					}
					CreateTask(t, s, o)
				}
			}
			querySorted(t, got, c.key, c.desc)
			seen := map[string]int{}
			for _, it := range got {
				seen[it.ID]++
			}
			for i, id := range seeded {
				if seen[id] != 1 {
					t.Fatalf("seeded row %d (%s) listed %d times, want once", i, id, seen[id])
				}
			}
		})
	}
}
