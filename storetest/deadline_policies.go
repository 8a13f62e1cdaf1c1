package storetest

import (
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"sync"
	"testing"
	"time"

	"usertasks/models"
	"usertasks/store"
)

// testDeadlinePolicies covers the tenants' default deadline policies (issue 30 item 4): one
// per (tenant, workflow definition), revision-checked, every put and delete audited in the
// same write; and their application to tasks projected without deadlines of their own.
func testDeadlinePolicies(t *testing.T, h Harness) {
	t.Run("Storage", func(t *testing.T) { testPolicyStorage(t, h) })
	t.Run("Applied", func(t *testing.T) { testPolicyApplied(t, h) })
}

// Policy definitions the cases store.
var (
	policyFlagHour = models.DeadlineDefinition{Kind: models.DeadlineStart, After: "PT1H", Actions: []models.DeadlineAction{flagAction}}
	policyEscalate = models.DeadlineDefinition{Kind: models.DeadlineCompletion, After: "P2D",
		Actions: []models.DeadlineAction{notifyManagers, reassignTo("t1", []string{"rescue/?#ü"}, "backoffice"), setPriority(90)}}
	// policyOverdue is due at once: its task can be fired right away.
	policyOverdue = models.DeadlineDefinition{Kind: models.DeadlineStart, At: "2020-01-01T00:00:00Z", Actions: []models.DeadlineAction{flagAction}}
)

// putPolicy stores a policy of def in tenant by actor, expecting revision expected.
func putPolicy(t *testing.T, s store.Store, tenant, def string, expected int, actor string, defs ...models.DeadlineDefinition) (models.DeadlinePolicy, error) {
	t.Helper()
	p, err := models.NewDeadlinePolicy(tenant, def, defs, User(tenant, actor))
	if err != nil {
		t.Fatalf("new policy: %v", err)
	}
	return s.PutDeadlinePolicy(ctx(t), p, expected)
}

func mustPutPolicy(t *testing.T, s store.Store, tenant, def string, expected int, defs ...models.DeadlineDefinition) models.DeadlinePolicy {
	t.Helper()
	p, err := putPolicy(t, s, tenant, def, expected, "boss", defs...)
	if err != nil {
		t.Fatalf("put policy %q at %d: %v", def, expected, err)
	}
	return p
}

func policyAudit(t *testing.T, s store.Store, tenant, def string, limit int) []models.DeadlinePolicyChange {
	t.Helper()
	out, err := s.DeadlinePolicyAudit(ctx(t), tenant, def, limit)
	if err != nil {
		t.Fatalf("policy audit: %v", err)
	}
	return out
}

// auditTrail is the audit as "<revision>:<action>:<actor>", newest first.
func auditTrail(entries []models.DeadlinePolicyChange) []string {
	out := make([]string, len(entries))
	for i, e := range entries {
		out[i] = fmt.Sprintf("%d:%s:%s", e.Revision, e.Action, e.Actor.ID)
	}
	return out
}

// kindsOf is each definition's kind and action types, to compare what was stored.
func kindsOf(defs []models.DeadlineDefinition) []string {
	var out []string
	for _, d := range defs {
		s := string(d.Kind) + " " + d.After + d.At
		for _, a := range d.Actions {
			s += " " + string(a.Type)
		}
		out = append(out, s)
	}
	return out
}

func testPolicyStorage(t *testing.T, h Harness) {
	s, clock := noteStore(t, h)

	t.Run("PutGetUpdate", func(t *testing.T) {
		before := storeNow(t, s)
		first := mustPutPolicy(t, s, "t1", "approval", 0, policyFlagHour, policyEscalate)
		if first.Revision != 1 || first.ChangedBy.ID != "boss" || first.UpdatedAt.Before(before) {
			t.Fatalf("first put: revision %d by %q at %v, want 1 by boss at or after %v", first.Revision, first.ChangedBy.ID, first.UpdatedAt, before)
		}
		got, err := s.DeadlinePolicy(ctx(t), "t1", "approval")
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(kindsOf(got.Deadlines), kindsOf(first.Deadlines)) || got.Revision != 1 || !got.UpdatedAt.Equal(first.UpdatedAt) {
			t.Fatalf("read back %+v, want %+v", got, first)
		}
		re := got.Deadlines[1].Actions[1]
		if len(re.CandidateUsers) != 1 || re.CandidateUsers[0].ID != "rescue/?#ü" || re.CandidateUsers[0].Provider != models.DefaultProvider ||
			len(re.CandidateGroups) != 1 || re.CandidateGroups[0].ID != "backoffice" {
			t.Fatalf("reassign read back %+v", re)
		}
		if p := got.Deadlines[1].Actions[2].Priority; p == nil || *p != 90 {
			t.Fatalf("priority read back %v", p)
		}
		clock.Advance(time.Second)
		second := mustPutPolicy(t, s, "t1", "approval", 1, policyOverdue)
		clock.Advance(-time.Second)
		if second.Revision != 2 || !second.UpdatedAt.After(first.UpdatedAt) {
			t.Fatalf("second put: revision %d at %v, want 2 after %v", second.Revision, second.UpdatedAt, first.UpdatedAt)
		}
		got, _ = s.DeadlinePolicy(ctx(t), "t1", "approval")
		if want := kindsOf([]models.DeadlineDefinition{policyOverdue}); !reflect.DeepEqual(kindsOf(got.Deadlines), want) {
			t.Fatalf("after the update %v, want %v", kindsOf(got.Deadlines), want)
		}
	})

	t.Run("ErrStaleRevision", func(t *testing.T) {
		mustPutPolicy(t, s, "t1", "stale", 0, policyFlagHour)
		mustPutPolicy(t, s, "t1", "stale", 1, policyFlagHour)
		for _, expected := range []int{0, 1, 3} {
			_, err := putPolicy(t, s, "t1", "stale", expected, "mallory", policyEscalate)
			wantCode(t, err, models.CodeRevisionConflict)
		}
		if err := s.DeleteDeadlinePolicy(ctx(t), "t1", "stale", 1, User("t1", "mallory")); models.ErrorCode(err) != models.CodeRevisionConflict {
			t.Fatalf("stale delete: %v, want revision-conflict", err)
		}
		if got := auditTrail(policyAudit(t, s, "t1", "stale", 10)); !slices.Equal(got, []string{"2:put:boss", "1:put:boss"}) {
			t.Fatalf("audit %v: a refused write left a trace", got)
		}
		if _, err := putPolicy(t, s, "t1", "never-set", 1, "boss", policyFlagHour); models.ErrorCode(err) != models.CodeRevisionConflict {
			t.Fatalf("an update of no policy: %v, want revision-conflict", err)
		}
	})

	t.Run("DeleteKeepsCounting", func(t *testing.T) {
		mustPutPolicy(t, s, "t1", "gone", 0, policyFlagHour)
		if err := s.DeleteDeadlinePolicy(ctx(t), "t1", "gone", 1, User("t1", "boss")); err != nil {
			t.Fatal(err)
		}
		if _, err := s.DeadlinePolicy(ctx(t), "t1", "gone"); !errors.Is(err, models.ErrNotFound) {
			t.Fatalf("after delete: %v", err)
		}
		if err := s.DeleteDeadlinePolicy(ctx(t), "t1", "gone", 0, User("t1", "boss")); !errors.Is(err, models.ErrNotFound) {
			t.Fatalf("second delete: %v", err)
		}
		if _, err := putPolicy(t, s, "t1", "gone", 2, "boss", policyFlagHour); models.ErrorCode(err) != models.CodeRevisionConflict {
			t.Fatalf("a put expecting the deleted revision: %v, want revision-conflict (no policy now is 0)", err)
		}
		again := mustPutPolicy(t, s, "t1", "gone", 0, policyEscalate)
		if again.Revision != 3 {
			t.Fatalf("put after delete: revision %d, want 3 (revisions never repeat)", again.Revision)
		}
		if err := s.DeleteDeadlinePolicy(ctx(t), "t1", "gone", 0, User("t1", "ann")); err != nil {
			t.Fatalf("delete expecting any revision: %v", err)
		}
		entries := policyAudit(t, s, "t1", "gone", 10)
		if got := auditTrail(entries); !slices.Equal(got, []string{"4:delete:ann", "3:put:boss", "2:delete:boss", "1:put:boss"}) {
			t.Fatalf("audit %v", got)
		}
		if entries[0].Deadlines != nil || len(entries[1].Deadlines) != 1 || entries[1].Deadlines[0].Kind != models.DeadlineCompletion {
			t.Fatalf("audit deadlines: delete %+v, put %+v", entries[0].Deadlines, entries[1].Deadlines)
		}
		for i := 1; i < len(entries); i++ {
			if entries[i].At.After(entries[i-1].At) {
				t.Fatalf("audit entry %d at %v is after the newer one at %v", i, entries[i].At, entries[i-1].At)
			}
		}
		if got := auditTrail(policyAudit(t, s, "t1", "gone", 2)); !slices.Equal(got, []string{"4:delete:ann", "3:put:boss"}) {
			t.Fatalf("audit limited to 2: %v", got)
		}
		if n := countPolicyAudit(t, h, s, "t1", "gone"); n >= 0 && n != 4 {
			t.Fatalf("%d stored audit entries, want 4", n)
		}
	})

	t.Run("OtherTenantInvisible", func(t *testing.T) {
		mustPutPolicy(t, s, "t1", "mine", 0, policyFlagHour)
		if _, err := s.DeadlinePolicy(ctx(t), "t2", "mine"); !errors.Is(err, models.ErrNotFound) {
			t.Fatalf("t2 reads t1's policy: %v", err)
		}
		if err := s.DeleteDeadlinePolicy(ctx(t), "t2", "mine", 0, User("t2", "boss")); !errors.Is(err, models.ErrNotFound) {
			t.Fatalf("t2 deletes t1's policy: %v", err)
		}
		if _, err := putPolicy(t, s, "t2", "mine", 1, "boss", policyOverdue); models.ErrorCode(err) != models.CodeRevisionConflict {
			t.Fatalf("t2 updates t1's policy: %v", err)
		}
		if got := policyAudit(t, s, "t2", "mine", 10); len(got) != 0 {
			t.Fatalf("t2 reads t1's audit: %v", auditTrail(got))
		}
		if list, err := s.DeadlinePolicies(ctx(t), "t2", "", 50); err != nil || len(list) != 0 {
			t.Fatalf("t2's list: %d policies, %v", len(list), err)
		}
		own := mustPutPolicy(t, s, "t2", "mine", 0, policyOverdue)
		if own.Revision != 1 {
			t.Fatalf("t2's own policy: revision %d", own.Revision)
		}
		if got, _ := s.DeadlinePolicy(ctx(t), "t1", "mine"); got.Revision != 1 || got.Deadlines[0].After != "PT1H" {
			t.Fatalf("t1's policy after t2's put: %+v", got)
		}
	})

	t.Run("HostileIDsAndPaging", func(t *testing.T) {
		ids := []string{"x/y?z#1 ü", " spaced id ", hostileID, "%2F", "Ω-定義"}
		for _, id := range ids {
			mustPutPolicy(t, s, "t3", id, 0, policyFlagHour)
		}
		for _, id := range ids {
			got, err := s.DeadlinePolicy(ctx(t), "t3", id)
			if err != nil || got.DefinitionID != id {
				t.Fatalf("read %q: %q, %v", id, got.DefinitionID, err)
			}
		}
		var walked []string
		after := ""
		for pages := 0; ; pages++ {
			page, err := s.DeadlinePolicies(ctx(t), "t3", after, 2)
			if err != nil {
				t.Fatal(err)
			}
			for _, p := range page {
				walked = append(walked, p.DefinitionID)
			}
			if len(page) < 2 || pages > 5 {
				break
			}
			after = page[len(page)-1].DefinitionID
		}
		// Each id once, in the store's order of the column (its collation decides).
		got, want := slices.Clone(walked), slices.Clone(ids)
		slices.Sort(got)
		slices.Sort(want)
		if !slices.Equal(got, want) {
			t.Fatalf("paged %q, want each of %q once", walked, ids)
		}
		if err := s.DeleteDeadlinePolicy(ctx(t), "t3", "%2F", 0, User("t3", "boss")); err != nil {
			t.Fatal(err)
		}
		if list, _ := s.DeadlinePolicies(ctx(t), "t3", "", 50); len(list) != len(ids)-1 {
			t.Fatalf("the list after a delete holds %d, want %d (deleted policies are not listed)", len(list), len(ids)-1)
		}
		for _, bad := range []string{"a\x00b", "a\nb", "a\u202eb", ""} {
			if _, err := s.DeadlinePolicy(ctx(t), "t3", bad); !errors.Is(err, models.ErrNotFound) {
				t.Fatalf("read of %q: %v, want not found", bad, err)
			}
			p := models.DeadlinePolicy{Tenant: "t3", DefinitionID: bad, Deadlines: []models.DeadlineDefinition{policyFlagHour}, ChangedBy: User("t3", "boss")}
			if _, err := s.PutDeadlinePolicy(ctx(t), p, 0); !errors.Is(err, models.ErrInvalid) {
				t.Fatalf("put of %q: %v, want a validation error", bad, err)
			}
		}
	})

	t.Run("ErrValidation", func(t *testing.T) {
		for name, p := range map[string]models.DeadlinePolicy{
			"NoDeadlines":  {Tenant: "t1", DefinitionID: "v", ChangedBy: User("t1", "boss")},
			"BothAfterAt":  {Tenant: "t1", DefinitionID: "v", ChangedBy: User("t1", "boss"), Deadlines: []models.DeadlineDefinition{{Kind: models.DeadlineStart, After: "PT1H", At: "2030-01-01T00:00:00Z", Actions: []models.DeadlineAction{flagAction}}}},
			"ZeroDuration": {Tenant: "t1", DefinitionID: "v", ChangedBy: User("t1", "boss"), Deadlines: []models.DeadlineDefinition{{Kind: models.DeadlineStart, After: "PT0S", Actions: []models.DeadlineAction{flagAction}}}},
			"ByAGroup":     {Tenant: "t1", DefinitionID: "v", ChangedBy: Group("t1", "managers"), Deadlines: []models.DeadlineDefinition{policyFlagHour}},
			"SixDeadlines": {Tenant: "t1", DefinitionID: "v", ChangedBy: User("t1", "boss"), Deadlines: slices.Repeat([]models.DeadlineDefinition{policyFlagHour}, 6)},
		} {
			if _, err := s.PutDeadlinePolicy(ctx(t), p, 0); !errors.Is(err, models.ErrInvalid) {
				t.Errorf("%s: %v, want a validation error", name, err)
			}
		}
		if _, err := s.DeadlinePolicy(ctx(t), "t1", "v"); !errors.Is(err, models.ErrNotFound) {
			t.Fatalf("a refused put wrote: %v", err)
		}
	})

	t.Run("ConcurrentUpdates", func(t *testing.T) { testPolicyRacedUpdates(t, s) })

	t.Run("ConcurrentFirstPuts", func(t *testing.T) {
		const racers = 6
		var wg sync.WaitGroup
		errs := make([]error, racers)
		for i := range racers {
			wg.Go(func() { _, errs[i] = putPolicy(t, s, "t1", "raced", 0, fmt.Sprintf("m%d", i), policyFlagHour) })
		}
		wg.Wait()
		won := 0
		for _, err := range errs {
			switch {
			case err == nil:
				won++
			case models.ErrorCode(err) != models.CodeRevisionConflict && !errors.Is(err, models.ErrBusy):
				t.Fatalf("a racer failed with %v, want revision-conflict", err)
			}
		}
		if entries := policyAudit(t, s, "t1", "raced", 10); won != 1 || len(entries) != 1 || entries[0].Revision != 1 {
			t.Fatalf("%d racers won, audit %v: want exactly one write of revision 1", won, auditTrail(entries))
		}
	})
}

// testPolicyRacedUpdates: of writers that all read revision 1 and update at once, exactly one
// writes revision 2; the audit holds one entry per revision.
func testPolicyRacedUpdates(t *testing.T, s store.Store) {
	mustPutPolicy(t, s, "t1", "raced-update", 0, policyFlagHour)
	const racers = 6
	var wg sync.WaitGroup
	errs := make([]error, racers)
	for i := range racers {
		wg.Go(func() { _, errs[i] = putPolicy(t, s, "t1", "raced-update", 1, fmt.Sprintf("m%d", i), policyOverdue) })
	}
	wg.Wait()
	var winner string
	for i, err := range errs {
		switch {
		case err == nil && winner != "":
			t.Fatalf("m%d and %s both wrote revision 2", i, winner)
		case err == nil:
			winner = fmt.Sprintf("m%d", i)
		case models.ErrorCode(err) != models.CodeRevisionConflict && !errors.Is(err, models.ErrBusy):
			t.Fatalf("a racer failed with %v, want revision-conflict", err)
		}
	}
	got, err := s.DeadlinePolicy(ctx(t), "t1", "raced-update")
	if err != nil || winner == "" || got.Revision != 2 || got.ChangedBy.ID != winner {
		t.Fatalf("after the race %+v, %v: want revision 2 by the one winner %q", got, err, winner)
	}
	if trail := auditTrail(policyAudit(t, s, "t1", "raced-update", 10)); len(trail) != 2 || trail[0] != "2:put:"+winner {
		t.Fatalf("audit %v, want revision 2 by %s over revision 1", trail, winner)
	}
}

// createdPolicyRevision is the deadlinePolicyRevision the task's created event names, "" for
// none.
func createdPolicyRevision(t *testing.T, s store.Store, task models.Task) string {
	t.Helper()
	evs, err := s.Events(ctx(t), task.Tenant, task.ID, 0, 10)
	if err != nil || len(evs) == 0 || evs[0].Type != models.EventCreated {
		t.Fatalf("events %+v, %v", evs, err)
	}
	var meta map[string]json.RawMessage
	if err := json.Unmarshal(evs[0].Metadata, &meta); err != nil {
		t.Fatalf("created metadata %s: %v", evs[0].Metadata, err)
	}
	if _, ok := meta["status"]; !ok {
		t.Fatalf("created metadata %s lost its status", evs[0].Metadata)
	}
	return string(meta["deadlinePolicyRevision"])
}

// countPolicyAudit counts the stored audit entries of def in tenant, -1 when the provider
// cannot count.
func countPolicyAudit(t *testing.T, h Harness, s store.Store, tenant, def string) int {
	t.Helper()
	if h.CountRecords == nil {
		return -1
	}
	return h.CountRecords(t, s, "user_task_policy_audit", map[string]any{"tenant_id": tenant, "workflow_definition_id": def})
}

func testPolicyApplied(t *testing.T, h Harness) {
	s, clock := noteStore(t, h)
	project := func(t *testing.T, tenant, def string, own []models.DeadlineDefinition) models.Task {
		t.Helper()
		return projectNote(t, s, tenant, func(p *models.Projection) {
			p.Workflow.DefinitionID = def
			p.CandidateGroups = []models.ParticipantRef{Group(tenant, "finance")}
			p.Deadlines = own
		})
	}
	mustPutPolicy(t, s, "t1", "x/y?z#1 ü", 0, policyFlagHour, policyEscalate)

	t.Run("AppliedAtCreation", func(t *testing.T) {
		task := project(t, "t1", "x/y?z#1 ü", nil)
		ds := mustDeadlines(t, s, task)
		if len(ds) != 2 || ds[0].Kind != models.DeadlineStart || ds[1].Kind != models.DeadlineCompletion {
			t.Fatalf("deadlines %+v, want the policy's two", ds)
		}
		if !ds[0].DueAt.Equal(task.CreatedAt.Add(time.Hour)) || !ds[1].DueAt.Equal(task.CreatedAt.Add(48*time.Hour)) {
			t.Fatalf("due %v and %v, want the creation (%v) plus 1h and 2d", ds[0].DueAt, ds[1].DueAt, task.CreatedAt)
		}
		if got := ds[1].ActionTypes(); !slices.Equal(got, []string{"notify", "reassign", "set-priority"}) {
			t.Fatalf("actions %v", got)
		}
		if ds[0].State != models.DeadlinePending || ds[0].TaskID != task.ID {
			t.Fatalf("deadline %+v", ds[0])
		}
		if got := createdPolicyRevision(t, s, task); got != "1" {
			t.Fatalf("the created event names policy revision %q, want 1", got)
		}
	})

	t.Run("OwnDeadlinesWin", func(t *testing.T) {
		own := models.DeadlineDefinition{Kind: models.DeadlineCompletion, After: "PT5M", Actions: []models.DeadlineAction{notifyManagers}}
		task := project(t, "t1", "x/y?z#1 ü", []models.DeadlineDefinition{own})
		ds := mustDeadlines(t, s, task)
		if len(ds) != 1 || ds[0].Kind != models.DeadlineCompletion || !ds[0].DueAt.Equal(task.CreatedAt.Add(5*time.Minute)) {
			t.Fatalf("deadlines %+v, want the projection's own only", ds)
		}
	})

	t.Run("ExplicitNoneWins", func(t *testing.T) {
		task := project(t, "t1", "x/y?z#1 ü", []models.DeadlineDefinition{})
		if ds := mustDeadlines(t, s, task); len(ds) != 0 {
			t.Fatalf("deadlines %+v, want none: the projection said so", ds)
		}
		if got := createdPolicyRevision(t, s, task); got != "" {
			t.Fatalf("the created event names policy revision %q for a task that did not get it", got)
		}
	})

	t.Run("NoPolicyNone", func(t *testing.T) {
		for _, task := range []models.Task{project(t, "t1", "x/y?z#1", nil), project(t, "t2", "x/y?z#1 ü", nil)} {
			if ds := mustDeadlines(t, s, task); len(ds) != 0 {
				t.Fatalf("task of %s/%s got %+v, want none", task.Tenant, task.Workflow.DefinitionID, ds)
			}
		}
	})

	t.Run("LaterChangesTouchNoTask", func(t *testing.T) {
		mustPutPolicy(t, s, "t1", "later", 0, policyFlagHour)
		before := project(t, "t1", "later", nil)
		mustPutPolicy(t, s, "t1", "later", 1, policyEscalate)
		if ds := mustDeadlines(t, s, before); len(ds) != 1 || ds[0].Kind != models.DeadlineStart {
			t.Fatalf("the earlier task's deadlines became %+v", ds)
		}
		after := project(t, "t1", "later", nil)
		if ds := mustDeadlines(t, s, after); len(ds) != 1 || ds[0].Kind != models.DeadlineCompletion {
			t.Fatalf("a task after the update got %+v, want the new policy", ds)
		}
		if b, a := createdPolicyRevision(t, s, before), createdPolicyRevision(t, s, after); b != "1" || a != "2" {
			t.Fatalf("created events name policy revisions %q and %q, want 1 and 2", b, a)
		}
		if err := s.DeleteDeadlinePolicy(ctx(t), "t1", "later", 0, User("t1", "boss")); err != nil {
			t.Fatal(err)
		}
		if ds := mustDeadlines(t, s, after); len(ds) != 1 {
			t.Fatalf("the delete took the task's deadlines: %+v", ds)
		}
		if ds := mustDeadlines(t, s, project(t, "t1", "later", nil)); len(ds) != 0 {
			t.Fatalf("a task after the delete got %+v", ds)
		}
	})

	t.Run("FiresOnceAndReprojectionKeepsIt", func(t *testing.T) {
		mustPutPolicy(t, s, "t1", "overdue", 0, policyOverdue)
		p := models.Projection{
			Tenant:   "t1",
			Workflow: models.WorkflowLink{DefinitionID: "overdue", InstanceID: models.NewID(), ActivityInstanceID: "review", BookmarkID: "bm-" + models.NewID()},
			Title:    "Overdue by policy", CandidateGroups: []models.ParticipantRef{Group("t1", "finance")},
		}
		key := models.MaterializationKey("t1", p.Workflow.InstanceID, p.Workflow.ActivityInstanceID)
		reproject := func() (models.Task, bool) {
			task, created, err := s.Create(ctx(t), "t1", key, p.Workflow.BookmarkID, func(now time.Time) (models.Change, error) { return models.Project(p, now) })
			if err != nil {
				t.Fatalf("project: %v", err)
			}
			return task, created
		}
		task, created := reproject()
		if !created {
			t.Fatal("not created")
		}
		if due := dueOf(dueWalk(t, s, 50), task); !slices.Equal(due, []string{"A#0"}) {
			t.Fatalf("due walk %v, want the policy's deadline", due)
		}
		fire(t, s, task, 0)
		if got := mustGet(t, s, "t1", task.ID); got.Health.Code != models.HealthDeadlineMissed {
			t.Fatalf("health %+v, want deadline-missed", got.Health)
		}
		if _, err := s.FireDeadline(ctx(t), "t1", task.ID, 0, theManagers); models.ErrorCode(err) != models.CodeDeadlineSettled {
			t.Fatalf("second firing: %v, want deadline-settled", err)
		}
		// The policy changes, then the runtime delivers the same bookmark again: nothing is
		// written, the fired deadline stays fired and the new policy is not applied.
		mustPutPolicy(t, s, "t1", "overdue", 1, policyFlagHour, policyEscalate)
		clock.Advance(time.Minute)
		again, created := reproject()
		clock.Advance(-time.Minute)
		if created || again.ID != task.ID {
			t.Fatalf("re-projection created %v", created)
		}
		ds := mustDeadlines(t, s, task)
		if len(ds) != 1 || ds[0].State != models.DeadlineFired {
			t.Fatalf("after re-projection %+v, want the one fired deadline", ds)
		}
	})
}
