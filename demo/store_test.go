package demo_test

import (
	"context"
	"path/filepath"
	"testing"

	"usertasks/keyring"
	"usertasks/models"
	"usertasks/repository"
)

// openStore opens a store on a fresh, migrated SQLite file. A small copy of the workflow
// tests' opener, kept here until one shared test-support package opens stores for all.
func openStore(t *testing.T) *repository.Store {
	t.Helper()
	u := "sqlite:" + filepath.Join(t.TempDir(), "demo.db")
	if err := repository.Migrate(context.Background(), u); err != nil {
		t.Fatal(err)
	}
	spec, err := keyring.Generate("k")
	if err != nil {
		t.Fatal(err)
	}
	keys, err := keyring.Parse(spec)
	if err != nil {
		t.Fatal(err)
	}
	s, err := repository.Open(context.Background(), repository.Config{URL: u, Keys: keys})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// countTasks counts every task of tenant, whatever its status or health.
func countTasks(t *testing.T, s *repository.Store, tenant string) int {
	t.Helper()
	page, err := s.Query(context.Background(), models.TaskFilter{Tenant: tenant, Scope: models.ScopeAll,
		Actor: models.Actor{Tenant: tenant, Manager: true}, IncludeTotal: true, Limit: 1})
	if err != nil {
		t.Fatal(err)
	}
	return *page.Total
}
