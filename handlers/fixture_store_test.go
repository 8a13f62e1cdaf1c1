package handlers_test

import (
	"testing"

	"usertasks/repository"
)

// sqlStore is the fixture's store as the SQL store, for a test that reads its tables directly.
func (f *webFixture) sqlStore(t *testing.T) *repository.Store {
	t.Helper()
	s, ok := f.store.(*repository.Store)
	if !ok {
		t.Fatalf("the fixture's store is a %T, not the SQL store", f.store)
	}
	return s
}
