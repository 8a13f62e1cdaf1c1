package repository_test

import (
	"context"
	"strings"
	"sync"
	"testing"

	"usertasks/models"
	"usertasks/storetest"
	"usertasks/testfactory"
)

// A list read on PostgreSQL plans its statements with their parameters (force_custom_plan, set
// for its own transaction before any list statement), and the setting ends with it: the next
// statement on the same pooled connection runs under the connection's default, auto.
func TestPostgresListsPlanWithTheirParameters(t *testing.T) {
	url := testfactory.Database(t, testfactory.Postgres)
	var mu sync.Mutex
	var stmts []string
	s := testfactory.OpenSQL(t, url, &testfactory.StoreOpts{OnSQL: func(sql string) {
		mu.Lock()
		defer mu.Unlock()
		stmts = append(stmts, sql)
	}})
	db, err := s.DB()
	if err != nil {
		t.Fatal(err)
	}
	db.SetMaxOpenConns(1) // the list and the check below share one connection
	boss := models.Actor{Tenant: "t1", Subject: storetest.User("t1", "boss"), Permissions: []string{"user-tasks:*"}, Manager: true}
	if _, err := s.Query(context.Background(), models.TaskFilter{Tenant: "t1", Scope: models.ScopeAll, Actor: boss, IncludeTotal: true}); err != nil {
		t.Fatal(err)
	}
	mu.Lock()
	set, list := -1, -1
	for i, st := range stmts {
		switch {
		case strings.Contains(st, "force_custom_plan") && set < 0:
			set = i
		case strings.Contains(st, "FROM \"user_tasks\"") || strings.Contains(st, "FROM user_tasks"):
			if list < 0 {
				list = i
			}
		}
	}
	mu.Unlock()
	if set < 0 || list < 0 || set > list {
		t.Fatalf("the plan cache setting (statement %d) must come before the first list statement (%d): %q", set, list, stmts)
	}
	var mode string
	if err := db.QueryRow("SELECT current_setting('plan_cache_mode')").Scan(&mode); err != nil {
		t.Fatal(err)
	}
	if mode != "auto" {
		t.Errorf("after the list read the connection's plan_cache_mode is %q, want auto", mode)
	}
}
