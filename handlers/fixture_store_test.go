package handlers_test

import (
	"testing"

	"usertasks/handlers"
	"usertasks/invitations"
	"usertasks/live"
	"usertasks/models"
	"usertasks/repository"
	"usertasks/tasks"
	"usertasks/websession"
	"usertasks/workers"
	"usertasks/workflow"
)

// fixtureStore is what the web and attack fixtures wire and call: the parts of `web serve`'s
// store they serve, so the attack fixture runs on the SQL store and the document store alike.
type fixtureStore interface {
	live.Loader
	tasks.Store
	tasks.DashboardStore
	tasks.InboxStore
	websession.Store
	invitations.IssuerStore
	invitations.GuestStore
	workflow.ProjectionStore
	workflow.FinalizeStore
	workers.Store
	handlers.Readiness
	NotifyChanges(n models.ChangeNotifier)
}

var _ fixtureStore = (*repository.Store)(nil)

// sqlStore is the fixture's store as the SQL store, for a test that reads its tables directly.
func (f *webFixture) sqlStore(t *testing.T) *repository.Store {
	t.Helper()
	s, ok := f.store.(*repository.Store)
	if !ok {
		t.Fatalf("the fixture's store is a %T, not the SQL store", f.store)
	}
	return s
}
