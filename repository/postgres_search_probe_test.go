package repository_test

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"

	"usertasks/models"
	"usertasks/repository"
	"usertasks/storetest"
	"usertasks/storetest/sqlharness"
	"usertasks/testfactory"
)

// PostgreSQL's search probe asks the planner first (an EXPLAIN of the sample read): a needle
// it expects often in the table's first pages is proven common by the sample, a bounded read
// of those pages in physical order that stops at SearchProbe+1 matches, never by the bitmap
// of ix_tasks_search, which holds every match before its first row; a rare needle still goes
// to the bitmap; and a needle common in the statistics but not in the sample's pages (the
// estimate's miss) is decided by the bitmap after the sample. The answers are the contract's
// (Queries/SearchPaths, SearchCorpus); this pins the paths and their plans.
func TestPostgresSearchProbeSamplesDenseNeedles(t *testing.T) {
	const probe = 3 // the sample reads 2 × 4 = 8 pages
	url := testfactory.Database(t, testfactory.Postgres)
	var mu sync.Mutex
	var stmts []string
	s := testfactory.OpenSQL(t, url, &testfactory.StoreOpts{SearchProbe: probe, OnSQL: func(q string) {
		mu.Lock()
		defer mu.Unlock()
		stmts = append(stmts, q)
	}})
	db, err := s.DB()
	if err != nil {
		t.Fatal(err)
	}
	// In insertion (physical) order: kestrels first, then a few bitterns and plain tasks, then
	// ospreys, which the statistics call as common as kestrels but which lie past the sample.
	for i := range 300 {
		storetest.CreateTask(t, s, storetest.TaskOpts{Title: fmt.Sprintf("kestrel %03d", i)})
	}
	for i := range 5 {
		storetest.CreateTask(t, s, storetest.TaskOpts{Title: fmt.Sprintf("bittern %d", i)})
	}
	for i := range 100 {
		storetest.CreateTask(t, s, storetest.TaskOpts{Title: fmt.Sprintf("plain %03d", i)})
	}
	for i := range 300 {
		storetest.CreateTask(t, s, storetest.TaskOpts{Title: fmt.Sprintf("osprey %03d", i)})
	}
	if _, err := db.Exec("ANALYZE user_tasks"); err != nil {
		t.Fatal(err)
	}
	inSample := func(needle string) (n int) {
		if err := db.QueryRow("SELECT COUNT(*) FROM user_tasks WHERE ctid < '(8,0)' AND search_text LIKE $1", "%"+needle+"%").Scan(&n); err != nil {
			t.Fatal(err)
		}
		return n
	}
	if k, o := inSample("kestrel"), inSample("osprey"); k <= probe || o > probe {
		t.Fatalf("the layout this test needs: %d kestrels (want more than %d) and %d ospreys (want at most %d) in the sample's 8 pages", k, probe, o, probe)
	}

	boss := testfactory.Manager("t1", "boss")
	for _, c := range []struct {
		needle          string
		sample, bitmap  bool // which reads ran
		items, matching int
	}{
		{needle: "Kestrel", sample: true, bitmap: false, items: 20, matching: 300},
		{needle: "bittern", sample: false, bitmap: true, items: 5, matching: 5},
		{needle: "osprey", sample: true, bitmap: true, items: 20, matching: 300},
	} {
		t.Run(c.needle, func(t *testing.T) {
			mu.Lock()
			stmts = nil
			mu.Unlock()
			page, err := s.Query(context.Background(), models.TaskFilter{Tenant: "t1", Actor: boss, Scope: models.ScopeAll,
				Sort: models.SortCreated, Search: c.needle, IncludeTotal: true, Limit: 20})
			if err != nil {
				t.Fatal(err)
			}
			for _, it := range page.Items {
				if !strings.Contains(strings.ToLower(it.Title), strings.ToLower(c.needle)) {
					t.Fatalf("%q found %q", c.needle, it.Title)
				}
			}
			if len(page.Items) != c.items {
				t.Fatalf("%q: %d items, want %d", c.needle, len(page.Items), c.items)
			}
			// A rare needle is narrowed to its ids (an exact total); a common one is the
			// window's (no total beyond the probe).
			if common := c.matching > probe; !common && (page.Total == nil || *page.Total != c.matching) {
				t.Fatalf("%q: total %v, want %d", c.needle, page.Total, c.matching)
			}
			mu.Lock()
			recorded := append([]string(nil), stmts...)
			mu.Unlock()
			var estimated, sampled, bitmapped bool
			var plans []string
			for _, st := range recorded {
				switch {
				case strings.HasPrefix(st, repository.SearchEstimatePrefix):
					estimated = true
				case strings.Contains(st, "ctid <"):
					sampled = true
				case strings.HasPrefix(st, "/* planner:") && strings.Contains(st, "search_text LIKE"):
					bitmapped = true
				}
				if !strings.Contains(st, "search_text LIKE") || !strings.Contains(st, "planner:") {
					continue // the list's own statements: a table this small is read whole
				}
				// The plan of what ran; the estimate's is the plan of the sample it explains.
				plan := strings.Join(sqlharness.QueryLines(t, db, "EXPLAIN "+strings.TrimPrefix(st, repository.SearchEstimatePrefix)), "\n")
				plans = append(plans, st+"\n"+plan)
				if strings.Contains(st, "ctid <") && !strings.Contains(plan, "Tid Range Scan on user_tasks") {
					t.Errorf("the sample does not read a page range:\n%s\n%s", st, plan)
				}
				if strings.Contains(plan, "Seq Scan on user_tasks") {
					t.Errorf("a full scan of user_tasks:\n%s\n%s", st, plan)
				}
			}
			all := strings.Join(plans, "\n\n")
			usesBitmap := strings.Contains(all, "Bitmap Index Scan on ix_tasks_search")
			if !estimated || sampled != c.sample || bitmapped != c.bitmap || usesBitmap != c.bitmap {
				t.Errorf("%q: estimated %v, sampled %v, probed the index %v (its bitmap in a plan %v); want true, %v, %v\n%s",
					c.needle, estimated, sampled, bitmapped, usesBitmap, c.sample, c.bitmap, all)
			}
		})
	}
}
