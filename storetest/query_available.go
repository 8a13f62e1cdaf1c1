package storetest

import (
	"fmt"
	"sort"
	"strings"
	"testing"
	"time"

	"usertasks/models"
)

// testQueryAvailableSorts checks the available list in every sort and direction, as read by
// walking the Available tasks in the sort's order (repository availableWalk): exactly the
// tasks the user may claim (a candidate as a user or through a group, not excluded, not
// assigned, not in another status or tenant), in the sort's order with NULLs last, the same
// order page by page through the cursor with any page size, and the total of all of them.
func testQueryAvailableSorts(t *testing.T, h Harness) {
	clock := &queryAt{}
	s := h.open(t, Options{Clock: clock.now})
	me := queryActor("t1", "me", false, Group("t1", "g1"), Group("t1", "g2"))
	bob := User("t1", "bob")
	base := time.Date(2030, 1, 7, 9, 0, 0, 0, time.UTC)
	words := []string{"delta", "alpha", "echo", "bravo", "charlie"}
	var want []string
	for i := 0; i < 30; i++ {
		clock.set(base.Add(time.Duration(i/4) * time.Second)) // groups of four share created_at
		o := TaskOpts{Title: words[i%len(words)], Priority: queryInt(i % 3 * 10)}
		if i%4 != 0 {
			o.DueAt = queryTime(base.Add(time.Duration(i%3) * time.Hour))
		}
		visible := true
		switch i % 6 {
		case 0:
			o.CandidateUsers = []string{"me"}
		case 1:
			o.CandidateGroups = []string{"g1"}
		case 2:
			o.CandidateGroups = []string{"g2", "g9"}
		case 3:
			o.CandidateGroups, visible = []string{"g9"}, false // another group's
		case 4:
			o.CandidateGroups, o.Excluded, visible = []string{"g1"}, []string{"me"}, false
		case 5:
			if i%12 == 5 {
				o.CandidateUsers, o.Assignee, visible = []string{"me"}, &bob, false // claimed by bob
			} else {
				o.CandidateUsers, o.Status, o.CompletedBy, visible = []string{"me"}, models.StatusCompleted, &bob, false
			}
		}
		id := CreateTask(t, s, o).ID
		if visible {
			want = append(want, id)
		}
	}
	for i, id := range want[:6] {
		clock.set(base.Add(time.Hour + time.Duration(i%2)*time.Second)) // ties in updated_at too
		if _, err := s.Mutate(ctx(t), "t1", id, "", Bump("", "")); err != nil {
			t.Fatalf("bump: %v", err)
		}
	}
	// Another tenant's Available tasks of the same candidates never page into this one.
	for i := 0; i < 3; i++ {
		CreateTask(t, s, TaskOpts{Tenant: "t2", Title: "alpha", CandidateUsers: []string{"me"}, CandidateGroups: []string{"g1"}})
	}
	sort.Strings(want)

	for _, key := range models.SortKeys {
		for _, desc := range []bool{false, true} {
			t.Run(fmt.Sprintf("%s/desc=%v", key, desc), func(t *testing.T) {
				f := models.TaskFilter{Tenant: "t1", Scope: models.ScopeAvailable, Actor: me, Sort: key, Descending: desc,
					Limit: models.MaxPageSize, IncludeTotal: true}
				page, err := s.Query(ctx(t), f)
				if err != nil {
					t.Fatalf("one big page: %v", err)
				}
				got := queryIDs(page.Items)
				querySorted(t, page.Items, key, desc)
				if page.Total == nil || *page.Total != len(want) || page.NextCursor != "" {
					t.Fatalf("one big page: total %v, cursor %q, want %d and none", page.Total, page.NextCursor, len(want))
				}
				sorted := append([]string(nil), got...)
				sort.Strings(sorted)
				if strings.Join(sorted, ",") != strings.Join(want, ",") {
					t.Fatalf("the list holds\n %v\nwant the claimable tasks\n %v", sorted, want)
				}
				for _, limit := range []int{1, 2, 3, 7} {
					f.Limit, f.IncludeTotal = limit, false
					if paged := queryIDs(queryPages(t, s, f)); strings.Join(paged, ",") != strings.Join(got, ",") {
						t.Fatalf("paging with limit %d yields\n %v\nwant the big page's order\n %v", limit, paged, got)
					}
				}
			})
		}
	}
}
