package storetest

import (
	"sort"
	"strings"
	"testing"
	"time"

	"usertasks/models"
)

// testQueryAttention checks the needs-attention scope against models.AttentionRule: any health
// finding, open and overdue, transitional longer than the stale threshold, or open without an
// assignee since longer than the unassigned threshold (from creation); never a terminal task.
// The Go rule and the SQL must agree on every task of the tenant.
func testQueryAttention(t *testing.T, h Harness) {
	t0 := time.Date(2030, 6, 12, 12, 0, 0, 0, time.UTC)
	clock := &queryAt{}
	clock.set(t0)
	s := h.open(t, Options{Clock: clock.now})
	boss := queryActor("t1", "boss", true)
	bob := User("t1", "bob")
	advisory := models.Health{Severity: models.SeverityAdvisory, Code: models.HealthResumeDeliveryFailing, Message: "retrying"}
	blocking := models.Health{Severity: models.SeverityBlocking, Code: models.HealthFormProviderMissing, Message: "form"}
	queryAt := t0.Add(25 * time.Hour)
	longAgo, lately := t0.Add(-time.Hour), queryAt.Add(-time.Minute)

	type fx struct {
		name string
		opts TaskOpts
		attn bool
	}
	old := []fx{ // created at t0: 25 hours before the query
		{"oldUnassigned", TaskOpts{}, true},
		{"oldAvailable", TaskOpts{CandidateUsers: []string{"bob"}}, true},
		{"oldAssigned", TaskOpts{Assignee: &bob}, false},
		{"oldCancelledUnassigned", TaskOpts{Status: models.StatusCancelled}, false},
		{"oldCompletedAdvisory", TaskOpts{Assignee: &bob, Status: models.StatusCompleted, CompletedBy: &bob, Health: advisory}, false},
		{"oldTimedOutOverdue", TaskOpts{Assignee: &bob, Status: models.StatusTimedOut, IsOverdue: true, DueAt: &longAgo}, false},
		{"oldCancellingUnassignedFresh", TaskOpts{Status: models.StatusCancelling, TransitionedAt: &lately}, false},
		{"oldCompletingStale", TaskOpts{Assignee: &bob, Status: models.StatusCompleting, TransitionedAt: &longAgo}, true},
	}
	fresh := []fx{ // created at t0+23h: 2 hours before the query
		{"freshUnassigned", TaskOpts{}, false},
		{"freshAvailable", TaskOpts{CandidateGroups: []string{"g1"}}, false},
		{"freshAdvisoryAssigned", TaskOpts{Assignee: &bob, Health: advisory}, true},
		{"freshBlockingAvailable", TaskOpts{CandidateUsers: []string{"bob"}, Health: blocking}, true},
		{"freshOverdueByDate", TaskOpts{Assignee: &bob, DueAt: &longAgo}, true},
		{"freshOverdueFlag", TaskOpts{Assignee: &bob, IsOverdue: true}, true},
		{"freshDueLater", TaskOpts{Assignee: &bob, DueAt: queryTime(queryAt.Add(time.Hour))}, false},
		{"freshCompletingRecent", TaskOpts{Assignee: &bob, Status: models.StatusCompleting, TransitionedAt: &lately}, false},
	}
	names := map[string]string{}
	var want []string
	create := func(list []fx) {
		for _, f := range list {
			task := CreateTask(t, s, f.opts)
			names[task.ID] = f.name
			if f.attn {
				want = append(want, f.name)
			}
		}
	}
	create(old)
	clock.set(t0.Add(23 * time.Hour))
	create(fresh)
	CreateTask(t, s, TaskOpts{Tenant: "t2", Health: blocking}) // another tenant: never listed
	sort.Strings(want)
	clock.set(queryAt)

	attention := models.TaskFilter{Tenant: "t1", Scope: models.ScopeNeedsAttention, Actor: boss,
		StaleAfter: 15 * time.Minute, UnassignedAfter: 24 * time.Hour, Limit: 3, IncludeTotal: true}

	t.Run("ListsExactlyTheTasksThatNeedAttention", func(t *testing.T) {
		got := queryNames(queryPages(t, s, attention), names)
		if strings.Join(got, ",") != strings.Join(want, ",") {
			t.Fatalf("needs-attention lists\n got  %v\n want %v", got, want)
		}
		page, err := s.Query(ctx(t), attention)
		if err != nil {
			t.Fatal(err)
		}
		if page.Total == nil || *page.Total != len(want) {
			t.Fatalf("total %v, want %d", page.Total, len(want))
		}
		if !page.Now.Equal(queryAt) {
			t.Fatalf("page evaluated at %v, want the database clock %v", page.Now, queryAt)
		}
	})

	t.Run("AgreesWithTheRule", func(t *testing.T) {
		rule := models.AttentionRule{StaleAfter: attention.StaleAfter, UnassignedAfter: attention.UnassignedAfter}
		all := queryPages(t, s, models.TaskFilter{Tenant: "t1", Scope: models.ScopeAll, Actor: boss, Limit: 50})
		var got []string
		for _, it := range all {
			if len(rule.Reasons(it, queryAt)) > 0 {
				got = append(got, names[it.ID])
			}
		}
		sort.Strings(got)
		if strings.Join(got, ",") != strings.Join(want, ",") {
			t.Fatalf("the Go rule picks\n got  %v\n want %v", got, want)
		}
	})

	t.Run("UnassignedAfterIsTheThreshold", func(t *testing.T) {
		f := attention
		f.UnassignedAfter = 26 * time.Hour
		for _, name := range queryNames(queryPages(t, s, f), names) {
			if name == "oldUnassigned" || name == "oldAvailable" {
				t.Fatalf("%s, unassigned for 25h, is listed with a 26h threshold", name)
			}
		}
		f.UnassignedAfter = time.Hour
		got := strings.Join(queryNames(queryPages(t, s, f), names), ",")
		for _, name := range []string{"freshUnassigned", "freshAvailable", "oldUnassigned"} {
			if !strings.Contains(got, name) {
				t.Fatalf("%s, unassigned for 2h, is not listed with a 1h threshold: %s", name, got)
			}
		}
	})

	t.Run("DefaultThresholdIsADay", func(t *testing.T) {
		f := attention
		f.UnassignedAfter = 0
		got := queryNames(queryPages(t, s, f), names)
		if strings.Join(got, ",") != strings.Join(want, ",") {
			t.Fatalf("with the default threshold\n got  %v\n want %v", got, want)
		}
	})
}

// testQueryHealthFilters checks the health code and severity filters: on any manager scope,
// through the cursor and in totals; refused for anyone but a manager and for unknown values.
func testQueryHealthFilters(t *testing.T, h Harness) {
	s := h.open(t, Options{})
	boss := queryActor("t1", "boss", true)
	me := User("t1", "me")
	person := queryActor("t1", "me", false)
	health := func(sev models.Severity, code string) models.Health {
		return models.Health{Severity: sev, Code: code, Message: "finding"}
	}
	fixtures := []struct {
		name string
		opts TaskOpts
	}{
		{"noParticipants", TaskOpts{Health: health(models.SeverityAdvisory, models.HealthNoParticipants)}},
		{"formFailed", TaskOpts{CandidateUsers: []string{"me"}, Health: health(models.SeverityBlocking, models.HealthFormResolutionFailed)}},
		{"snapshotFailed", TaskOpts{CandidateUsers: []string{"me"}, Health: health(models.SeverityBlocking, models.HealthSnapshotResolutionFailed)}},
		{"resumeFailing", TaskOpts{Assignee: &me, Status: models.StatusCompleting, TransitionedAt: queryTime(time.Now().UTC()),
			Health: health(models.SeverityAdvisory, models.HealthResumeDeliveryFailing)}},
		{"healthy", TaskOpts{Assignee: &me}},
		{"completedFormFailed", TaskOpts{Assignee: &me, Status: models.StatusCompleted, CompletedBy: &me,
			Health: health(models.SeverityBlocking, models.HealthFormResolutionFailed)}},
	}
	names := map[string]string{}
	for _, f := range fixtures {
		names[CreateTask(t, s, f.opts).ID] = f.name
	}
	CreateTask(t, s, TaskOpts{Tenant: "t2", Health: health(models.SeverityBlocking, models.HealthFormResolutionFailed)})

	cases := []struct {
		name  string
		scope models.Scope
		codes []string
		sev   models.Severity
		want  []string
	}{
		{"OneCode", models.ScopeAll, []string{models.HealthFormResolutionFailed}, "", []string{"completedFormFailed", "formFailed"}},
		{"CodesRepeat", models.ScopeAll, []string{models.HealthFormResolutionFailed, models.HealthNoParticipants}, "",
			[]string{"completedFormFailed", "formFailed", "noParticipants"}},
		{"DuplicateCodes", models.ScopeAll, []string{models.HealthNoParticipants, models.HealthNoParticipants}, "", []string{"noParticipants"}},
		{"Blocking", models.ScopeAll, nil, models.SeverityBlocking, []string{"completedFormFailed", "formFailed", "snapshotFailed"}},
		{"Advisory", models.ScopeAll, nil, models.SeverityAdvisory, []string{"noParticipants", "resumeFailing"}},
		{"CodeAndSeverity", models.ScopeAll, []string{models.HealthNoParticipants, models.HealthSnapshotResolutionFailed},
			models.SeverityBlocking, []string{"snapshotFailed"}},
		{"NoMatch", models.ScopeAll, []string{models.HealthStaleTransition}, "", nil},
		{"NeedsAttentionBlocking", models.ScopeNeedsAttention, nil, models.SeverityBlocking, []string{"formFailed", "snapshotFailed"}},
		{"NeedsAttentionCode", models.ScopeNeedsAttention, []string{models.HealthResumeDeliveryFailing}, "", []string{"resumeFailing"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			f := models.TaskFilter{Tenant: "t1", Scope: c.scope, Actor: boss, HealthCodes: c.codes, HealthSeverity: c.sev,
				Limit: 1, IncludeTotal: true}
			got := queryNames(queryPages(t, s, f), names)
			if strings.Join(got, ",") != strings.Join(c.want, ",") {
				t.Fatalf("got %v, want %v", got, c.want)
			}
			page, err := s.Query(ctx(t), f)
			if err != nil {
				t.Fatal(err)
			}
			if page.Total == nil || *page.Total != len(c.want) {
				t.Fatalf("total %v, want %d", page.Total, len(c.want))
			}
		})
	}

	t.Run("NonManagerIsForbidden", func(t *testing.T) {
		for _, f := range []models.TaskFilter{
			{Tenant: "t1", Scope: models.ScopeAssigned, Actor: person, HealthSeverity: models.SeverityAdvisory},
			{Tenant: "t1", Scope: models.ScopeAvailable, Actor: person, HealthCodes: []string{models.HealthNoParticipants}},
			{Tenant: "t1", Scope: models.ScopeHistory, Actor: person, HealthCodes: []string{"no-such-code"}},
		} {
			_, err := s.Query(ctx(t), f)
			wantIs(t, err, models.ErrForbidden)
		}
	})
	t.Run("UnknownCodeOrSeverityIsInvalid", func(t *testing.T) {
		for _, f := range []models.TaskFilter{
			{Tenant: "t1", Scope: models.ScopeAll, Actor: boss, HealthCodes: []string{"no-such-code"}},
			{Tenant: "t1", Scope: models.ScopeAll, Actor: boss, HealthCodes: []string{models.HealthNoParticipants, "x' OR '1'='1"}},
			{Tenant: "t1", Scope: models.ScopeAll, Actor: boss, HealthCodes: []string{""}},
			{Tenant: "t1", Scope: models.ScopeAll, Actor: boss, HealthSeverity: "critical"},
		} {
			_, err := s.Query(ctx(t), f)
			wantCode(t, err, models.CodeValidationFailed)
		}
	})
}
