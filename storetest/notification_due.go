package storetest

import (
	"slices"
	"sort"
	"testing"
	"time"

	"usertasks/models"
	"usertasks/store"
)

// dueSoonPages follows DueSoonTasks from the first page to the last.
func dueSoonPages(t *testing.T, s store.Store, from, to time.Time, limit int) []string {
	t.Helper()
	var ids []string
	var after *models.Task
	for pages := 0; ; pages++ {
		if pages > 100 {
			t.Fatal("the scan never ends")
		}
		page, err := s.DueSoonTasks(ctx(t), from, to, after, limit)
		if err != nil {
			t.Fatalf("due soon tasks: %v", err)
		}
		if len(page) > limit {
			t.Fatalf("a page of %d tasks, limit %d", len(page), limit)
		}
		ids = append(ids, wqIDs(page)...)
		if len(page) < limit {
			return ids
		}
		after = &page[len(page)-1]
	}
}

// testNotificationDueSoon checks the due-soon worker's scan: open tasks of every tenant due in
// (from, to], by due time then id, paged by keyset.
func testNotificationDueSoon(t *testing.T, h Harness) {
	s, _ := noteStore(t, h)
	from := storeNow(t, s).Add(time.Hour)
	to := from.Add(4 * time.Hour)
	due := func(d time.Time) *time.Time { return &d }
	task := func(o TaskOpts) models.Task { return CreateTask(t, s, o) }

	first := task(TaskOpts{DueAt: due(from.Add(time.Hour)), CandidateUsers: []string{"ann"}})
	same1 := task(TaskOpts{DueAt: due(from.Add(2 * time.Hour)), CandidateUsers: []string{"ann"}})
	same2 := task(TaskOpts{DueAt: due(from.Add(2 * time.Hour))})
	otherTenant := task(TaskOpts{Tenant: "t2", DueAt: due(from.Add(150 * time.Minute)), CandidateUsers: []string{"ann"}})
	assigned := task(TaskOpts{DueAt: due(from.Add(3 * time.Hour)), Assignee: ptr(User("t1", "ann"))})
	atTo := task(TaskOpts{DueAt: due(to), CandidateUsers: []string{"bob"}})
	// Outside the window or not open.
	task(TaskOpts{DueAt: due(from), CandidateUsers: []string{"ann"}})
	task(TaskOpts{DueAt: due(to.Add(time.Second)), CandidateUsers: []string{"ann"}})
	task(TaskOpts{DueAt: due(from.Add(-time.Hour)), CandidateUsers: []string{"ann"}})
	task(TaskOpts{CandidateUsers: []string{"ann"}})
	task(TaskOpts{DueAt: due(from.Add(time.Hour)), Status: models.StatusCompleted})
	task(TaskOpts{Tenant: "t2", DueAt: due(from.Add(time.Hour)), Status: models.StatusCancelled})
	completing := task(TaskOpts{DueAt: due(from.Add(time.Hour)), Assignee: ptr(User("t1", "ann"))})
	if _, err := s.Mutate(ctx(t), "t1", completing.ID, "", transition(models.StatusCompleting, "")); err != nil {
		t.Fatal(err)
	}

	tied := []string{same1.ID, same2.ID}
	sort.Strings(tied)
	want := []string{first.ID, tied[0], tied[1], otherTenant.ID, assigned.ID, atTo.ID}

	t.Run("WindowOpenTasksByDueThenID", func(t *testing.T) {
		if got := dueSoonPages(t, s, from, to, 100); !slices.Equal(got, want) {
			t.Fatalf("scan %q, want %q", got, want)
		}
	})
	t.Run("KeysetPaging", func(t *testing.T) {
		for _, limit := range []int{1, 2, 4} {
			if got := dueSoonPages(t, s, from, to, limit); !slices.Equal(got, want) {
				t.Fatalf("pages of %d: %q, want %q", limit, got, want)
			}
		}
	})
	t.Run("TasksCarryTheirTenantAndDue", func(t *testing.T) {
		page, err := s.DueSoonTasks(ctx(t), from, to, nil, 100)
		if err != nil {
			t.Fatal(err)
		}
		for _, got := range page {
			if got.ID == otherTenant.ID && got.Tenant != "t2" {
				t.Fatalf("the other tenant's task came back in tenant %q", got.Tenant)
			}
			if got.DueAt == nil || !got.DueAt.After(from) || got.DueAt.After(to) {
				t.Fatalf("task %s due %v, outside (%v, %v]", got.ID, got.DueAt, from, to)
			}
		}
	})
	t.Run("EmptyWindow", func(t *testing.T) {
		if got := dueSoonPages(t, s, to.Add(time.Hour), to.Add(2*time.Hour), 10); len(got) != 0 {
			t.Fatalf("scan of an empty window: %q", got)
		}
	})
}
