package storetest

import (
	"fmt"
	"sort"
	"testing"
	"time"

	"usertasks/models"
	"usertasks/store"
	"usertasks/storekit"
	"usertasks/testfactory"
)

// The fixtures of the notification cases (SPEC 10.3, store.Notifications and store.People).
// The cases read the rows through the contract only: the worker's claim sees every pending row,
// the in-app list every shown one, so no case needs a storage hook.

// noteStore opens a fresh store with a movable clock: lease expiry, retries and retention are
// reached by moving the clock, never by sleeping.
func noteStore(t *testing.T, h Harness) (store.Store, *testfactory.Clock) {
	t.Helper()
	clock := &testfactory.Clock{}
	return h.open(t, Options{Clock: clock.Now}), clock
}

// storeNow is the store's clock, truncated to the second so that times the cases derive from
// it survive every store's precision (BSON dates hold milliseconds).
func storeNow(t *testing.T, s store.Store) time.Time {
	t.Helper()
	now, err := s.Now(ctx(t))
	if err != nil {
		t.Fatal(err)
	}
	return now.Truncate(time.Second)
}

// newNote is a pending row for recipient about task, as a worker builds it (the due-soon scan).
func newNote(task models.Task, trigger models.NotificationTrigger, revision int64, recipient models.ParticipantRef, at time.Time) models.Notification {
	return storekit.NewNotification(&task, trigger, revision, recipient, nil, at)
}

// noteKey is how the cases compare rows: trigger, recipient and revision.
func noteKey(n models.Notification) string {
	return fmt.Sprintf("%s %s:%s r%d", n.Trigger, n.Recipient.Type, n.Recipient.ID, n.Revision)
}

func noteKeys(ns []models.Notification) []string {
	out := make([]string, len(ns))
	for i, n := range ns {
		out[i] = noteKey(n)
	}
	sort.Strings(out)
	return out
}

func noteIDs(ns []models.Notification) []string {
	out := make([]string, len(ns))
	for i, n := range ns {
		out[i] = n.ID
	}
	return out
}

func wantKeys(t *testing.T, what string, got []models.Notification, want ...string) {
	t.Helper()
	sort.Strings(want)
	if g := noteKeys(got); fmt.Sprint(g) != fmt.Sprint(want) {
		t.Fatalf("%s: rows %q, want %q", what, g, want)
	}
}

// addNotes writes rows through AddNotifications and checks how many it reports written.
func addNotes(t *testing.T, s store.Store, want int, ns ...models.Notification) {
	t.Helper()
	n, err := s.AddNotifications(ctx(t), ns)
	if err != nil {
		t.Fatalf("add notifications: %v", err)
	}
	if n != want {
		t.Fatalf("add notifications wrote %d, want %d", n, want)
	}
}

// claimNotes leases up to 500 claimable rows for a minute.
func claimNotes(t *testing.T, s store.Store, owner string) []models.Notification {
	t.Helper()
	ns, err := s.ClaimNotifications(ctx(t), owner, 500, time.Minute)
	if err != nil {
		t.Fatalf("claim notifications: %v", err)
	}
	return ns
}

// claimOne leases the one claimable row, failing unless there is exactly one.
func claimOne(t *testing.T, s store.Store, owner string) models.Notification {
	t.Helper()
	ns := claimNotes(t, s, owner)
	if len(ns) != 1 {
		t.Fatalf("claimed %q, want one row", noteKeys(ns))
	}
	return ns[0]
}

func settle(t *testing.T, s store.Store, n models.Notification, out models.NotificationOutcome) {
	t.Helper()
	if err := s.SettleNotification(ctx(t), n, out); err != nil {
		t.Fatalf("settle %s: %v", noteKey(n), err)
	}
}

// shown is the outcome of a delivery that showed the row and sent nothing else.
var shown = models.NotificationOutcome{State: models.NotificationDone, Visible: true, Email: models.ChannelOff, Webhook: models.ChannelOff}

// drain claims every claimable row and settles it done without showing it: the rows a step
// caused, and a clean slate for the next step.
func drain(t *testing.T, s store.Store) []models.Notification {
	t.Helper()
	ns := claimNotes(t, s, "drain")
	for _, n := range ns {
		settle(t, s, n, models.NotificationOutcome{State: models.NotificationDone, Email: models.ChannelOff, Webhook: models.ChannelOff})
	}
	return ns
}

// showAll claims every claimable row and settles it shown; it returns the rows as claimed.
func showAll(t *testing.T, s store.Store) []models.Notification {
	t.Helper()
	ns := claimNotes(t, s, "show")
	for _, n := range ns {
		settle(t, s, n, shown)
	}
	return ns
}

// inbox is the whole in-app list of recipient, following the cursor page by page.
func inbox(t *testing.T, s store.Store, tenant string, recipient models.ParticipantRef, unreadOnly bool, limit int) []models.Notification {
	t.Helper()
	var out []models.Notification
	q := models.NotificationQuery{Tenant: tenant, Recipient: recipient, UnreadOnly: unreadOnly, Limit: limit}
	for pages := 0; ; pages++ {
		if pages > 1000 {
			t.Fatal("the list never ends")
		}
		page, err := s.Notifications(ctx(t), q)
		if err != nil {
			t.Fatalf("notifications: %v", err)
		}
		out = append(out, page.Items...)
		if page.Next == nil {
			return out
		}
		if len(page.Items) == 0 {
			t.Fatal("an empty page with a next cursor")
		}
		q.After = page.Next
	}
}

func unread(t *testing.T, s store.Store, tenant string, recipient models.ParticipantRef) int {
	t.Helper()
	n, err := s.UnreadNotifications(ctx(t), tenant, recipient, 1000)
	if err != nil {
		t.Fatalf("unread notifications: %v", err)
	}
	return n
}

// projectNote creates a task through the real projection path, edit shaping the projection.
func projectNote(t *testing.T, s store.Store, tenant string, edit func(p *models.Projection)) models.Task {
	t.Helper()
	p := models.Projection{
		Tenant:   tenant,
		Workflow: models.WorkflowLink{DefinitionID: "notify", InstanceID: models.NewID(), ActivityInstanceID: "review", BookmarkID: "bm-" + models.NewID()},
		Title:    "Review the offer", CancellationEnabled: true,
	}
	if edit != nil {
		edit(&p)
	}
	key := models.MaterializationKey(tenant, p.Workflow.InstanceID, p.Workflow.ActivityInstanceID)
	task, _, err := s.Create(ctx(t), tenant, key, p.Workflow.BookmarkID, func(now time.Time) (models.Change, error) {
		return models.Project(p, now)
	})
	if err != nil {
		t.Fatalf("project: %v", err)
	}
	return task
}

// lifecycle is a real command of the lifecycle (models.Claim, Assign, Release, Cancel …).
type lifecycle func(cur models.Task, cmd models.Command, now time.Time) (models.Change, error)

// command runs a lifecycle command as actor through Mutate, expecting revision expected (0: the
// task's revision as loaded).
func command(t *testing.T, s store.Store, task models.Task, actor models.Actor, opID string, expected int, run lifecycle) (models.Change, error) {
	t.Helper()
	return s.Mutate(ctx(t), task.Tenant, task.ID, opID, func(now time.Time, cur models.Task, prior *models.Operation) (models.Change, error) {
		want := expected
		if want == 0 {
			want = cur.Revision
		}
		return run(cur, models.Command{OperationID: opID, ExpectedRevision: want, Actor: actor, Prior: prior}, now)
	})
}

func mustCommand(t *testing.T, s store.Store, task models.Task, actor models.Actor, run lifecycle) models.Task {
	t.Helper()
	c, err := command(t, s, task, actor, "", 0, run)
	if err != nil {
		t.Fatalf("command: %v", err)
	}
	return c.Task
}

// hostileID is an identifier an attacker would try: path and query characters, spaces and
// non-ASCII text.
const hostileID = "ann/../x?y=1#frag %20 ü😀"
