package repository_test

import (
	"context"
	"fmt"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"usertasks/models"
	"usertasks/repository"
	"usertasks/stress/seed"
	"usertasks/testfactory"
)

// shortSearchScaleEnv sizes the short search's measurement: "open,terminal" tasks of one
// tenant (e.g. 100000,1000000 for the scale target). Unset, the test is skipped. It prints
// the time of a first page (with its total) and of a page 20 cursors deep per window size,
// beside the plain list's, as ratios (docs/benchmarks.md, "Short search"); it asserts
// nothing about time.
const shortSearchScaleEnv = "USERTASKS_SHORT_SEARCH_SCALE"

func TestShortSearchScale(t *testing.T) {
	v := os.Getenv(shortSearchScaleEnv)
	if v == "" {
		t.Skipf("set %s=open,terminal to measure the short search", shortSearchScaleEnv)
	}
	sizes := strings.Split(v, ",")
	open, err1 := strconv.Atoi(sizes[0])
	terminal, err2 := strconv.Atoi(sizes[len(sizes)-1])
	if err1 != nil || err2 != nil || len(sizes) != 2 {
		t.Fatalf("%s=%q: want open,terminal", shortSearchScaleEnv, v)
	}
	for _, p := range testfactory.SQLProviders {
		t.Run(p.Name(), func(t *testing.T) {
			ctx := context.Background()
			u := testfactory.Database(t, p)
			base := testfactory.OpenSQL(t, u, nil)
			db, err := base.DB()
			if err != nil {
				t.Fatal(err)
			}
			start := time.Now()
			if _, err := seed.Load(ctx, db, p.Dialect(), seed.Options{Tenants: []seed.Tenant{{Name: "scale", Open: open, Terminal: terminal}}}); err != nil {
				t.Fatal(err)
			}
			t.Logf("%s: loaded %d + %d tasks in %s", p.Name(), open, terminal, time.Since(start).Round(time.Second))
			manager := testfactory.Manager("scale", "boss")
			person, _ := seed.Person(7)
			worker := testfactory.Person("scale", person, "g00", "g03", "g06", "g01", "g02")
			lists := []struct {
				name string
				f    models.TaskFilter
			}{
				{"all created desc", models.TaskFilter{Scope: models.ScopeAll, Actor: manager, Sort: models.SortCreated, Descending: true}},
				{"all title asc", models.TaskFilter{Scope: models.ScopeAll, Actor: manager, Sort: models.SortTitle}},
				{"all due asc", models.TaskFilter{Scope: models.ScopeAll, Actor: manager, Sort: models.SortDue}},
				{"available created desc", models.TaskFilter{Scope: models.ScopeAvailable, Actor: worker, Sort: models.SortCreated, Descending: true}},
				{"needs attention created desc", models.TaskFilter{Scope: models.ScopeNeedsAttention, Actor: manager, Sort: models.SortCreated, Descending: true}},
				{"history created desc", models.TaskFilter{Scope: models.ScopeHistory, Actor: worker, Sort: models.SortCreated, Descending: true}},
			}
			windows := []int{1000, 2500, 5000}
			stores := map[int]*repository.Store{}
			for _, w := range windows {
				stores[w] = testfactory.OpenSQL(t, u, &testfactory.StoreOpts{ShortSearchWindow: w})
			}
			// ß never occurs in the seed (every page examines its whole window); "e" is common.
			var b strings.Builder
			fmt.Fprintf(&b, "\n%s, %d + %d tasks, fastest ms of 7 (first page with total / page 20 cursors deep):\n", p.Name(), open, terminal)
			fmt.Fprintf(&b, "| list | plain | %s |\n", strings.Join(func() []string {
				var h []string
				for _, w := range windows {
					h = append(h, fmt.Sprintf("ß W=%d | e W=%d", w, w))
				}
				return h
			}(), " | "))
			for _, l := range lists {
				row := []string{l.name, measurePages(t, base, l.f)}
				for _, w := range windows {
					for _, needle := range []string{"ß", "e"} {
						f := l.f
						f.Search = needle
						row = append(row, measurePages(t, stores[w], f))
					}
				}
				fmt.Fprintf(&b, "| %s |\n", strings.Join(row, " | "))
			}
			t.Log(b.String())
		})
	}
}

// measurePages is the fastest time of the first page (with its total) and of the page after
// 20 pages followed by cursor, over 7 runs each, as "first / deep" in milliseconds: on a
// shared machine the fastest run is the one least disturbed.
func measurePages(t *testing.T, s *repository.Store, f models.TaskFilter) string {
	t.Helper()
	ctx := context.Background()
	f.Tenant, f.Limit = "scale", models.DefaultPageSize
	first := f
	first.IncludeTotal = true
	cursor := ""
	deep := f
	for range 20 {
		page, err := s.Query(ctx, deep)
		if err != nil {
			t.Fatal(err)
		}
		if cursor = page.NextCursor; cursor == "" {
			break
		}
		deep.Cursor = cursor
	}
	fastest := func(f models.TaskFilter) float64 {
		var runs []time.Duration
		for range 7 {
			start := time.Now()
			if _, err := s.Query(ctx, f); err != nil {
				t.Fatal(err)
			}
			runs = append(runs, time.Since(start))
		}
		slices.Sort(runs)
		return float64(runs[0].Microseconds()) / 1000
	}
	d := "-"
	if cursor != "" {
		d = fmt.Sprintf("%.1f", fastest(deep))
	}
	return fmt.Sprintf("%.1f / %s", fastest(first), d)
}
