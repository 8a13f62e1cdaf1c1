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

// testQueryShortSearchWindow checks the defined behaviour of a 1–2 character search with a
// window of 4 rows (Options.ShortSearchWindow): each page examines at most the window's rows
// of the list after its cursor and lists their matches; a page the window ends short of its
// limit, with rows left, says SearchLimited and its cursor points at the last row examined;
// following the cursors yields every match in the list's order; the first page's total
// counts the first window's matches, capped. A 3+ character search is not windowed.
func testQueryShortSearchWindow(t *testing.T, h Harness) {
	const window = 4
	s := h.open(t, Options{ShortSearchWindow: window})
	boss := queryActor("t1", "boss", true)
	hits := map[int]bool{0: true, 2: true, 3: true, 9: true, 13: true}
	var tasks []models.Task
	for i := range 15 {
		title := fmt.Sprintf("Row %02d", i)
		if hits[i] {
			title += " ~Q"
		}
		tasks = append(tasks, CreateTask(t, s, TaskOpts{Title: title, Priority: queryInt(i * 7 % 5)}))
	}
	for _, raw := range []string{"q", "~q"} {
		for i, so := range []struct {
			key  models.SortKey
			desc bool
		}{{models.SortCreated, false}, {models.SortTitle, true}, {models.SortPriority, false}, {models.SortDue, true}} {
			limit := []int{1, 2, 5, 3}[i]
			t.Run(fmt.Sprintf("%s/%s/%d", raw, so.key, limit), func(t *testing.T) {
				list := slices.Clone(tasks)
				slices.SortStableFunc(list, func(a, b models.Task) int {
					switch {
					case queryLess(a, b, so.key, so.desc):
						return -1
					case queryLess(b, a, so.key, so.desc):
						return 1
					}
					return 0
				})
				f := models.TaskFilter{Tenant: "t1", Scope: models.ScopeAll, Actor: boss, Search: raw, Sort: so.key, Descending: so.desc,
					Limit: limit, IncludeTotal: true}
				matches := func(from, to int) []string { // titles of the matches among list[from:to]
					var out []string
					for _, task := range list[from:min(to, len(list))] {
						if strings.Contains(storekit.SearchText(&task), storekit.SearchNeedle(raw)) {
							out = append(out, task.Title)
						}
					}
					return out
				}
				pos := 0 // the index in list of the first row after the cursor
				var all []string
				for pages := 0; ; pages++ {
					if pages > 50 {
						t.Fatal("no end")
					}
					page, err := s.Query(ctx(t), f)
					if err != nil {
						t.Fatal(err)
					}
					if pages == 0 {
						if n := len(matches(0, window)); page.Total == nil || *page.Total != n || !page.TotalCapped {
							t.Fatalf("first page: total %s capped %v, want %d capped (window's matches)", searchTotal(page), page.TotalCapped, n)
						}
					}
					// The rule: the matches among the window after the cursor, at most limit.
					want := matches(pos, pos+window)
					end := min(pos+window, len(list)) // after the last row examined
					full := len(want) > limit
					if full {
						want = want[:limit]
						end = slices.IndexFunc(list, func(x models.Task) bool { return x.Title == want[limit-1] }) + 1
					}
					got := searchTitles(page.Items)
					if !slices.Equal(got, want) {
						t.Fatalf("page %d from row %d: got %q, want %q", pages, pos, got, want)
					}
					wantLimited := !full && end < len(list) && len(want) < limit
					if page.SearchLimited != wantLimited {
						t.Fatalf("page %d from row %d: SearchLimited %v, want %v", pages, pos, page.SearchLimited, wantLimited)
					}
					all = append(all, got...)
					if !full && end >= len(list) {
						if page.NextCursor != "" {
							t.Fatalf("page %d: a cursor at the list's end", pages)
						}
						break
					}
					if page.NextCursor == "" {
						t.Fatalf("page %d ending at row %d of %d: no cursor", pages, end, len(list))
					}
					_, id, err := storekit.DecodeCursor(page.NextCursor, f.Sort, f.Descending, storekit.FilterDigest(f))
					if err != nil {
						t.Fatal(err)
					}
					if id != list[end-1].ID {
						t.Fatalf("page %d: cursor at %s, want the last row examined %q", pages, id, list[end-1].Title)
					}
					pos, f.Cursor = end, page.NextCursor
				}
				if want := matches(0, len(list)); !slices.Equal(all, want) {
					t.Fatalf("paged %q, want %q", all, want)
				}
			})
		}
	}
	t.Run("LongNeedleIsNotWindowed", func(t *testing.T) {
		page, err := s.Query(ctx(t), models.TaskFilter{Tenant: "t1", Scope: models.ScopeAll, Actor: boss, Search: "row", Limit: 50, IncludeTotal: true})
		if err != nil {
			t.Fatal(err)
		}
		if len(page.Items) != len(tasks) || page.SearchLimited || page.Total == nil || *page.Total != len(tasks) || page.TotalCapped {
			t.Fatalf("%d items, limited %v, total %s capped %v; want all %d, exact", len(page.Items), page.SearchLimited, searchTotal(page), page.TotalCapped, len(tasks))
		}
	})
}

// testQueryCommonSearchWindow checks a 3+ character needle that the store's substring probe
// finds in more tasks than it reads (Options.SearchProbe): where there is a probe (SQLite and
// PostgreSQL), its pages are the short search's windows — a page the window ends short says
// SearchLimited and its cursor resumes after the last row examined —, elsewhere the walk is
// exact. Either way following the cursors lists every match in the list's order, no page is
// over its limit, and a short page with a cursor says why.
func testQueryCommonSearchWindow(t *testing.T, h Harness) {
	const window = 4
	s := h.open(t, Options{ShortSearchWindow: window, SearchProbe: 2})
	boss := queryActor("t1", "boss", true)
	hits := map[int]bool{0: true, 2: true, 3: true, 9: true, 13: true}
	var want []string
	for i := range 15 {
		title := fmt.Sprintf("Row %02d", i)
		if hits[i] {
			title += " ~Qx"
			want = append(want, title)
		}
		CreateTask(t, s, TaskOpts{Title: title})
	}
	probes := h.SQL != nil && (h.SQL.Dialect == migrations.SQLite || h.SQL.Dialect == migrations.Postgres)
	f := models.TaskFilter{Tenant: "t1", Scope: models.ScopeAll, Actor: boss, Search: "~QX", Sort: models.SortTitle, Limit: 2}
	var got []string
	limited := 0
	for pages := 0; ; pages++ {
		if pages > 20 {
			t.Fatal("no end")
		}
		page, err := s.Query(ctx(t), f)
		if err != nil {
			t.Fatal(err)
		}
		if len(page.Items) > f.Limit {
			t.Fatalf("page %d: %d items, over the limit %d", pages, len(page.Items), f.Limit)
		}
		if page.SearchLimited {
			limited++
		}
		if page.NextCursor != "" && len(page.Items) < f.Limit && !page.SearchLimited {
			t.Fatalf("page %d: %d items and a cursor, without SearchLimited", pages, len(page.Items))
		}
		got = append(got, searchTitles(page.Items)...)
		if page.NextCursor == "" {
			break
		}
		f.Cursor = page.NextCursor
	}
	if !slices.Equal(got, want) {
		t.Fatalf("paged %q, want %q", got, want)
	}
	if probes != (limited > 0) {
		t.Fatalf("%d pages said SearchLimited; want some only where the store probes a substring index (%v)", limited, probes)
	}
}

// searchTotal is a page's total for a message.
func searchTotal(p models.TaskPage) string {
	if p.Total == nil {
		return "none"
	}
	return fmt.Sprint(*p.Total)
}
