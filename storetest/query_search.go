package storetest

import (
	"fmt"
	"sort"
	"strings"
	"testing"
	"time"

	"usertasks/models"
)

// querySearchProbe is the SearchProbe the search-path case opens its store with: a needle
// matching more of the tenant's tasks than this is read by the sort index's walk, one matching
// fewer through the substring index (repository's probeSearch). The corpus has needles on both
// sides of it, so the SQL stores take both paths; stores without the option read all alike.
const querySearchProbe = 4

// testQuerySearchPaths pages searches of a rare needle (fewer matches than the probe), a common
// one (more), one in another tenant only, one of exactly the probe's count, and one matching
// nothing, by every sort in both directions and several page sizes, in the all, needs-attention
// and assigned scopes, against the tasks whose search text holds the needle, sorted by queryLess:
// whichever way a store reads the list, the answer is the same (issue 27).
func testQuerySearchPaths(t *testing.T, h Harness) {
	clock := &queryAt{}
	s := h.open(t, Options{Clock: clock.now, SearchProbe: querySearchProbe})
	boss := queryActor("t1", "boss", true)
	bob := User("t1", "bob")
	base := time.Date(2030, 5, 6, 9, 0, 0, 0, time.UTC)
	clock.set(base)
	words := []string{"Kestrel", "osprey", "KESTREL-9", "heron", "Falcon", "50%_[off]"}
	for i := 0; i < 40; i++ {
		clock.set(base.Add(time.Duration(i/3) * time.Second)) // ties in created_at
		o := TaskOpts{Title: fmt.Sprintf("%s task %02d", words[i%len(words)], i%7), Priority: queryInt(i % 4 * 10)}
		switch {
		case i < 2:
			o.Summary = "the Bittern report" // rare: 2 tasks
		case i < 6:
			o.Reference = "REF-exact-4" // exactly the probe's count
		}
		if i%5 != 0 {
			o.DueAt = queryTime(base.Add(time.Duration(i%4) * time.Hour))
		}
		switch i % 4 {
		case 1:
			o.Assignee = &bob
		case 2:
			o.Assignee, o.Status, o.CompletedBy = &bob, models.StatusCompleted, &bob
		}
		CreateTask(t, s, o)
	}
	for i := 0; i < 3; i++ { // another tenant's matches never count or list
		CreateTask(t, s, TaskOpts{Tenant: "t2", Title: "bittern kestrel", Summary: "only-in-t2"})
	}
	clock.set(base.Add(48 * time.Hour))

	all := queryPages(t, s, models.TaskFilter{Tenant: "t1", Scope: models.ScopeAll, Actor: boss, Limit: models.MaxPageSize})
	needles := []struct {
		search string
		want   int // matches in the all scope
	}{
		{"bittern", 2}, {"  KeStReL ", 14}, {"ref-exact-4", 4}, {"%_[", 6}, {"only-in-t2", 0}, {"no such words", 0},
	}
	rule := models.AttentionRule{StaleAfter: 15 * time.Minute, UnassignedAfter: 24 * time.Hour}
	scopes := []struct {
		scope models.Scope
		actor models.Actor
		keep  func(models.Task) bool
	}{
		{models.ScopeAll, boss, func(models.Task) bool { return true }},
		{models.ScopeNeedsAttention, boss, func(it models.Task) bool { return len(rule.Reasons(it, base.Add(48*time.Hour))) > 0 }},
		{models.ScopeAssigned, queryActor("t1", "bob", false), func(it models.Task) bool {
			return it.Assignee != nil && it.Assignee.ID == "bob" && it.Status != models.StatusCompleted
		}},
	}
	for _, n := range needles {
		needle := strings.ToLower(strings.TrimSpace(n.search))
		var matches []models.Task
		for _, it := range all {
			if strings.Contains(strings.ToLower(it.Title+"\n"+it.Summary+"\n"+it.Reference), needle) {
				matches = append(matches, it)
			}
		}
		if len(matches) != n.want {
			t.Fatalf("fixture: %q matches %d tasks, want %d", n.search, len(matches), n.want)
		}
		for _, sc := range scopes {
			var listed []models.Task
			for _, it := range matches {
				if sc.keep(it) {
					listed = append(listed, it)
				}
			}
			for _, key := range models.SortKeys {
				for _, desc := range []bool{false, true} {
					want := append([]models.Task(nil), listed...)
					sort.Slice(want, func(i, j int) bool { return queryLess(want[i], want[j], key, desc) })
					t.Run(fmt.Sprintf("%s/%s/%s/desc=%v", strings.TrimSpace(n.search), sc.scope, key, desc), func(t *testing.T) {
						f := models.TaskFilter{Tenant: "t1", Scope: sc.scope, Actor: sc.actor, Sort: key, Descending: desc,
							Search: n.search, StaleAfter: rule.StaleAfter, UnassignedAfter: rule.UnassignedAfter, IncludeTotal: true}
						for _, limit := range []int{1, 3, models.MaxPageSize} {
							f.Limit = limit
							page, err := s.Query(ctx(t), f)
							if err != nil {
								t.Fatal(err)
							}
							if page.Total == nil || *page.Total != len(want) || page.TotalCapped {
								t.Fatalf("limit %d: total %v (capped %v), want %d", limit, page.Total, page.TotalCapped, len(want))
							}
							g := f
							g.IncludeTotal = false
							if got, w := strings.Join(queryIDs(queryPages(t, s, g)), ","), strings.Join(queryIDs(want), ","); got != w {
								t.Fatalf("limit %d lists\n got  %v\n want %v", limit, got, w)
							}
						}
					})
				}
			}
		}
	}
}
