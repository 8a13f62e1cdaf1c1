package storetest

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"usertasks/migrations"
	"usertasks/models"
	"usertasks/storekit"
)

// testQueryCommonSearchChunks checks the windowed pages of a common needle on the available
// scope when a page without its total reads its window in chunks (a few pages' worth each,
// fewer rows than the window): every page, its cursor and SearchLimited are those of the
// window read at once (storekit.ShortSearch over the list in its order), the actor's list
// leaves out the tasks they are no candidate of, are excluded from or may only see through a
// snapshot group they are not in. Where there is no probe the search is exact and the pages
// list every match in order.
func testQueryCommonSearchChunks(t *testing.T, h Harness) {
	const window = 40
	s := h.open(t, Options{ShortSearchWindow: window, SearchProbe: 2})
	me := queryActor("t1", "me", false, Group("t1", "g1"))
	var list []storekit.SearchRow // the actor's available list in creation order
	for i := range 120 {
		title := fmt.Sprintf("Row %03d", i)
		if i%7 == 0 || i%11 == 3 {
			title += " ~Qx"
		}
		o := TaskOpts{Title: title}
		visible := true
		switch i % 5 {
		case 0:
			o.CandidateUsers = []string{"me"}
		case 1, 2:
			o.CandidateGroups = []string{"g1"}
		case 3:
			o.CandidateUsers = []string{"someone"}
			visible = false
		case 4:
			o.CandidateGroups, o.Excluded = []string{"g1"}, []string{"me"}
			visible = false
		}
		task := CreateTask(t, s, o)
		if visible {
			list = append(list, storekit.SearchRow{ID: task.ID, Value: storekit.SortValue{Time: task.CreatedAt}, Text: storekit.SearchText(&task)})
		}
	}
	probes := h.SQL != nil && (h.SQL.Dialect == migrations.SQLite || h.SQL.Dialect == migrations.Postgres)
	needle := storekit.SearchNeedle("~QX")
	read := func(after *storekit.SortValue, afterID string, n int) ([]storekit.SearchRow, error) {
		i := 0
		if after != nil {
			i = slices.IndexFunc(list, func(r storekit.SearchRow) bool { return r.ID == afterID }) + 1
		}
		return list[i:min(i+n, len(list))], nil
	}
	for _, limit := range []int{1, 2, 3} {
		t.Run(fmt.Sprintf("Limit%d", limit), func(t *testing.T) {
			f := models.TaskFilter{Tenant: "t1", Scope: models.ScopeAvailable, Actor: me, Search: "~QX", Sort: models.SortCreated, Limit: limit}
			var after *storekit.SortValue
			afterID := ""
			for pages := 0; ; pages++ {
				if pages > 100 {
					t.Fatal("no end")
				}
				page, err := s.Query(ctx(t), f)
				if err != nil {
					t.Fatal(err)
				}
				got := make([]string, len(page.Items))
				for i, it := range page.Items {
					got[i] = it.ID
				}
				var want storekit.ShortPage
				if probes {
					want, err = storekit.ShortSearch(storekit.ShortSearchQuery{Needle: needle, Window: window, Limit: limit, Cap: models.TotalCap,
						After: after, AfterID: afterID}, read)
				} else {
					want, err = storekit.ShortSearch(storekit.ShortSearchQuery{Needle: needle, Window: len(list) + 1, Limit: limit,
						Cap: models.TotalCap, After: after, AfterID: afterID}, read)
				}
				if err != nil {
					t.Fatal(err)
				}
				if !slices.Equal(got, want.IDs) || page.SearchLimited != want.Limited || (page.NextCursor == "") != (want.Next == nil) {
					t.Fatalf("page %d: %d items %v limited %v cursor %v; want %v limited %v cursor %v", pages, len(got),
						strings.Join(got, " "), page.SearchLimited, page.NextCursor != "", strings.Join(want.IDs, " "), want.Limited, want.Next != nil)
				}
				if want.Next == nil {
					break
				}
				after, afterID, f.Cursor = &want.Next.Value, want.Next.ID, page.NextCursor
			}
		})
	}
}
