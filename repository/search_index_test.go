package repository_test

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"

	"usertasks/migrations"
	"usertasks/models"
	"usertasks/repository"
	"usertasks/storetest"
	"usertasks/testfactory"
)

// SQLite's search index (migration 00013) is filled from the tasks stored before it, and stays
// right after VACUUM, which renumbers user_tasks' rowids (its primary key is a VARCHAR): the
// FTS rows are keyed by user_task_search_rows, whose INTEGER PRIMARY KEY VACUUM keeps, so an
// update or a delete after it changes the task's own entry.
func TestSearchIndexSQLiteMigratesAndSurvivesVacuum(t *testing.T) {
	ctx := context.Background()
	u := "sqlite:" + t.TempDir() + "/search.db"
	db, d, err := repository.OpenSQL(u)
	if err != nil {
		t.Fatal(err)
	}
	p, err := migrations.NewProvider(d, db)
	if err != nil {
		t.Fatal(err)
	}
	// The tasks are written by today's store, so at today's schema, which then goes down to 12
	// (keeping them): 00013 finds them there on the way up again. Written at 12 itself, a task
	// row would name columns a later migration adds to user_tasks.
	if _, err := p.Up(ctx); err != nil {
		t.Fatal(err)
	}
	s := testfactory.OpenSQL(t, u, nil)
	var ids []string
	for i := range 30 {
		ids = append(ids, storetest.CreateTask(t, s, storetest.TaskOpts{Title: fmt.Sprintf("Bird%03d", i)}).ID)
	}
	if _, err := p.DownTo(ctx, 12); err != nil {
		t.Fatal(err)
	}
	db.Close()
	if err := repository.Migrate(ctx, u); err != nil {
		t.Fatal(err)
	}
	w, err := s.DB()
	if err != nil {
		t.Fatal(err)
	}
	find := func(needle string) []string {
		t.Helper()
		rows, err := w.Query(`SELECT r.task_id FROM user_task_search JOIN user_task_search_rows r ON r.id = user_task_search.rowid
			WHERE user_task_search MATCH ? ORDER BY r.task_id`, `"`+needle+`"`)
		if err != nil {
			t.Fatal(err)
		}
		defer rows.Close()
		var out []string
		for rows.Next() {
			var id string
			if err := rows.Scan(&id); err != nil {
				t.Fatal(err)
			}
			out = append(out, id)
		}
		return out
	}
	for i, id := range ids {
		if got := find(fmt.Sprintf("bird%03d", i)); !slices.Equal(got, []string{id}) {
			t.Fatalf("after the migration, bird%03d finds %v, want %s", i, got, id)
		}
	}
	// Rows deleted before VACUUM leave gaps that it closes, renumbering user_tasks' rowids.
	for _, id := range ids[:10] {
		if _, err := w.Exec(`DELETE FROM user_tasks WHERE id = ?`, id); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := w.Exec(`VACUUM`); err != nil {
		t.Fatal(err)
	}
	if _, err := w.Exec(`UPDATE user_tasks SET search_text = 'osprey' WHERE id = ?`, ids[20]); err != nil {
		t.Fatal(err)
	}
	if _, err := w.Exec(`DELETE FROM user_tasks WHERE id = ?`, ids[25]); err != nil {
		t.Fatal(err)
	}
	for i, id := range ids {
		want := []string{id}
		if i < 10 || i == 20 || i == 25 {
			want = nil
		}
		if got := find(fmt.Sprintf("bird%03d", i)); !slices.Equal(got, want) {
			t.Errorf("after VACUUM, an update and a delete: bird%03d finds %v, want %v", i, got, want)
		}
	}
	if got := find("osprey"); !slices.Equal(got, []string{ids[20]}) {
		t.Errorf("the updated text finds %v, want %s", got, ids[20])
	}
	var entries int
	if err := w.QueryRow(`SELECT COUNT(*) FROM user_task_search_rows`).Scan(&entries); err != nil || entries != 19 {
		t.Errorf("%d row-map entries (%v), want 19", entries, err)
	}
	if _, err := w.Exec(`INSERT INTO user_task_search (user_task_search) VALUES ('integrity-check')`); err != nil {
		t.Errorf("FTS5 integrity check: %v", err)
	}
}

// A search of at least three characters on SQLite and PostgreSQL asks the substring index for
// at most SearchProbe ids: a rare needle's list is then read among them (an id IN list), a
// common one by the short search's window of the list (the test in Go, no LIKE, the total the
// window's: no count); MariaDB has no index and never probes. The contract case
// Queries/SearchPaths checks that the paths give the same answers.
func TestSearchProbePaths(t *testing.T) {
	for _, p := range testfactory.SQLProviders {
		t.Run(p.Name(), func(t *testing.T) {
			var mu sync.Mutex
			var stmts []string
			s := testfactory.OpenSQL(t, testfactory.Database(t, p), &testfactory.StoreOpts{SearchProbe: 3, TotalCap: 3, OnSQL: func(q string) {
				mu.Lock()
				stmts = append(stmts, q)
				mu.Unlock()
			}})
			for i := range 8 {
				title := "kestrel"
				if i < 2 {
					title = "bittern"
				}
				storetest.CreateTask(t, s, storetest.TaskOpts{Title: fmt.Sprintf("%s %d", title, i)})
			}
			// An id with quotes, a backslash, a comma and braces: the narrowed list still finds it.
			storetest.CreateTask(t, s, storetest.TaskOpts{ID: `odd"id\,{x}`, Title: "bittern 8"})
			boss := testfactory.Manager("t1", "boss")
			for _, c := range []struct {
				search   string
				n        int
				narrowed bool
			}{{"Bittern", 3, true}, {"kestrel", 6, false}, {"tern 1", 1, true}, {"no such", 0, true}} {
				mu.Lock()
				stmts = nil
				mu.Unlock()
				page, err := s.Query(context.Background(), models.TaskFilter{Tenant: "t1", Actor: boss, Scope: models.ScopeAll,
					Sort: models.SortTitle, Search: c.search, IncludeTotal: true})
				if err != nil {
					t.Fatal(err)
				}
				if len(page.Items) != c.n || page.Total == nil || *page.Total != min(c.n, 3) || page.TotalCapped != (c.n > 3) {
					t.Fatalf("%q: %d items, total %v (capped %v), want %d (the cap is 3)", c.search, len(page.Items), page.Total, page.TotalCapped, c.n)
				}
				mu.Lock()
				all := strings.Join(stmts, "\n")
				var list []string // the statements besides the probe
				for _, q := range stmts {
					if !strings.Contains(q, "user_task_search") && !strings.Contains(q, "planner:") {
						list = append(list, q)
					}
				}
				mu.Unlock()
				indexed := p != testfactory.MySQL && len([]rune(c.search)) >= 3
				probed := strings.Contains(all, "user_task_search") || strings.Contains(all, "planner:")
				rest := strings.ToUpper(strings.Join(list, "\n"))
				// A rare needle's list is narrowed to the probe's ids and filtered by the LIKE; a
				// common one's is the window of the list, tested in Go (no LIKE), its total the
				// window's (no count); without the index the LIKE walks the list and counts.
				narrowed := strings.Contains(rest, "ID IN") && strings.Contains(rest, "LIKE") || strings.Contains(rest, "1 = 0")
				windowed := !strings.Contains(rest, "LIKE") && !strings.Contains(rest, "COUNT(")
				wantNarrowed, wantWindowed := indexed && c.narrowed, indexed && !c.narrowed
				if probed != indexed || narrowed != wantNarrowed || windowed != wantWindowed {
					t.Errorf("%q: probed %v, narrowed %v, windowed %v; want %v, %v, %v\n%s", c.search, probed, narrowed, windowed,
						indexed, wantNarrowed, wantWindowed, all)
				}
			}
		})
	}
}

// The assigned and history scopes list one person's own tasks, which their index reads: a
// search there is the LIKE on those rows, never the substring probe, whose bitmap of a common
// needle's matches in the whole tenant cost PostgreSQL more than the page (personalScope).
func TestSearchPersonalScopesDoNotProbe(t *testing.T) {
	for _, p := range testfactory.SQLProviders {
		t.Run(p.Name(), func(t *testing.T) {
			var mu sync.Mutex
			var stmts []string
			s := testfactory.OpenSQL(t, testfactory.Database(t, p), &testfactory.StoreOpts{SearchProbe: 1, OnSQL: func(q string) {
				mu.Lock()
				stmts = append(stmts, q)
				mu.Unlock()
			}})
			bob := storetest.User("t1", "bob")
			for i := range 6 {
				o := storetest.TaskOpts{Title: fmt.Sprintf("kestrel %d", i), Assignee: &bob}
				if i%2 == 0 {
					o.Status, o.CompletedBy = models.StatusCompleted, &bob
				}
				storetest.CreateTask(t, s, o)
			}
			actor := testfactory.Worker("t1", "bob")
			for _, scope := range []models.Scope{models.ScopeAssigned, models.ScopeHistory, models.ScopeAll} {
				mu.Lock()
				stmts = nil
				mu.Unlock()
				f := models.TaskFilter{Tenant: "t1", Actor: actor, Scope: scope, Search: "kestrel", IncludeTotal: true}
				if scope == models.ScopeAll {
					f.Actor = testfactory.Manager("t1", "boss")
				}
				page, err := s.Query(context.Background(), f)
				if err != nil {
					t.Fatal(err)
				}
				want := map[models.Scope]int{models.ScopeAssigned: 3, models.ScopeHistory: 3, models.ScopeAll: 6}[scope]
				if len(page.Items) != want || page.SearchLimited {
					t.Fatalf("%s: %d items (limited %v), want %d", scope, len(page.Items), page.SearchLimited, want)
				}
				mu.Lock()
				all := strings.Join(stmts, "\n")
				mu.Unlock()
				probed := strings.Contains(all, "user_task_search") || strings.Contains(all, "planner:")
				if wantProbe := scope == models.ScopeAll && p != testfactory.MySQL; probed != wantProbe {
					t.Errorf("%s: probed %v, want %v\n%s", scope, probed, wantProbe, all)
				}
			}
		})
	}
}
