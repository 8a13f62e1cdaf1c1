package repository_test

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"

	"usertasks/models"
	"usertasks/storetest"
	"usertasks/testfactory"
)

// PostgreSQL reads the available list by the length of the actor's list (availableRead): an
// actor who is a candidate of few of the tenant's Available tasks from their candidate rows
// (the walk of the sort's index would read every Available task to fill the page), one who is a
// candidate of many by the walk, probing each task for a page and testing it against the
// candidate ids hashed once for a long read (a short needle's window); the first page's total
// of a walked list tests the candidate ids hashed once too (availableTotalConds). The answers
// are the contract's (Queries); this pins which read runs, and that each answers the same rows
// in the same order as the list sorted in Go, and the same total.
func TestPostgresAvailableReadByListLength(t *testing.T) {
	const window = 250 // a long read: ShortSearchWindow + 1 rows
	url := testfactory.Database(t, testfactory.Postgres)
	var mu sync.Mutex
	var stmts []string
	s := testfactory.OpenSQL(t, url, &testfactory.StoreOpts{ShortSearchWindow: window, OnSQL: func(q string) {
		mu.Lock()
		defer mu.Unlock()
		stmts = append(stmts, q)
	}})
	db, err := s.DB()
	if err != nil {
		t.Fatal(err)
	}
	// 400 Available tasks: the crowd's group is a candidate of 300, the loner of 4 directly,
	// and one of the crowd's is excluded for the member.
	var crowd, loner []string
	for i := range 400 {
		o := storetest.TaskOpts{Title: fmt.Sprintf("heron %03d", (i*7)%400)}
		if i%4 != 0 {
			o.CandidateGroups = []string{"crowd"}
		} else {
			o.CandidateUsers = []string{"someone-else"}
		}
		if i%100 == 1 {
			o.CandidateUsers = append(o.CandidateUsers, "loner")
		}
		if i == 2 {
			o.Excluded = []string{"member"}
		}
		task := storetest.CreateTask(t, s, o)
		if i%4 != 0 && i != 2 {
			crowd = append(crowd, task.Title)
		}
		if i%100 == 1 {
			loner = append(loner, task.Title)
		}
	}
	if _, err := db.Exec("ANALYZE"); err != nil {
		t.Fatal(err)
	}
	slices.Sort(crowd)
	slices.Sort(loner)

	member := testfactory.Person("t1", "member", "crowd")
	lonely := testfactory.Person("t1", "loner")
	for _, c := range []struct {
		name   string
		actor  models.Actor
		search string // "e": a short needle, read through the window
		want   []string
		read   string // how the list's rows are read: "probe", "hashed" or "candidates"
		total  string // how the capped total tests the candidates: "hashed", "candidates", "" (the window counts)
		count  int    // the total; -1 for a window's (its matches among the window's rows)
	}{
		// The page of 20 needs 21 rows: the walk from √(21 × 400 ÷ 2) = 65 candidate rows on.
		{"ManyByTheWalk", member, "", crowd[:20], "probe", "hashed", len(crowd)},
		{"FewFromTheirCandidates", lonely, "", loner, "candidates", "candidates", len(loner)},
		// The window needs 251 rows: the hashed walk from √(251 × 400 ÷ 2) = 225 on.
		{"ManyInAWindowByTheHashedWalk", member, "e", crowd[:20], "hashed", "", -1},
		{"FewInAWindowFromTheirCandidates", lonely, "e", loner, "candidates", "", len(loner)},
	} {
		t.Run(c.name, func(t *testing.T) {
			mu.Lock()
			stmts = nil
			mu.Unlock()
			page, err := s.Query(context.Background(), models.TaskFilter{Tenant: "t1", Actor: c.actor, Scope: models.ScopeAvailable,
				Sort: models.SortTitle, Search: c.search, IncludeTotal: true, Limit: 20})
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, it := range page.Items {
				got = append(got, it.Title)
			}
			if !slices.Equal(got, c.want) {
				t.Fatalf("titles %q, want %q", got, c.want)
			}
			if c.count >= 0 && (page.Total == nil || *page.Total != c.count) {
				t.Errorf("total %v, want %d", page.Total, c.count)
			}
			mu.Lock()
			recorded := append([]string(nil), stmts...)
			mu.Unlock()
			var counted, memory bool
			var list []string
			total := ""
			for _, st := range recorded {
				switch {
				case strings.Contains(st, "set_config('work_mem'"):
					memory = true
				case strings.HasPrefix(st, "SELECT count(*) FROM (SELECT 1 FROM user_task_candidates c"):
					counted = true
				case strings.HasPrefix(st, `SELECT count(*) FROM (SELECT 1 AS one FROM "user_tasks"`):
					total = "candidates"
					if strings.Contains(st, "user_tasks.id IN (SELECT c.task_id") {
						total = "hashed"
					}
				case strings.Contains(st, "FROM \"user_tasks\"") && strings.Contains(st, "ORDER BY title"):
					list = append(list, st)
				}
			}
			if !counted || len(list) == 0 {
				t.Fatalf("counted the candidate rows %v, list reads %d; statements:\n%s", counted, len(list), strings.Join(recorded, "\n"))
			}
			if total != c.total {
				t.Errorf("the total tests the candidates as %q, want %q", total, c.total)
			}
			if memory != (c.read == "hashed" || c.total == "hashed") {
				t.Errorf("work_mem raised %v, want it only for the hashed walk and the hashed total", memory)
			}
			for _, st := range list {
				read := "candidates"
				switch {
				case strings.Contains(st, "user_tasks.id IN (SELECT c.task_id"):
					read = "hashed"
				case strings.Contains(st, "OFFSET 0)"):
					read = "probe"
				}
				if read != c.read {
					t.Errorf("read %s, want %s:\n%s", read, c.read, st)
				}
			}
		})
	}
}
