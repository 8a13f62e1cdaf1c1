package docstore_test

import (
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"

	"usertasks/docstore"
	"usertasks/models"
	"usertasks/storekit"
	"usertasks/testfactory"
)

// The document store's own notification tests: what the contract cases cannot see — the rows
// queued in the aggregate and relayed, crashes between the two writes, and FerretDB's
// whole-document updates under concurrent writers of one row. The contract cases
// (storetest/notification_*.go) check the behaviour every store shares.

const notificationCollection = "user_task_notifications"

// notificationKeys are the stored rows of a task as "trigger recipient" strings.
func notificationKeys(t *testing.T, s *docstore.Store, taskID string) map[string]int {
	t.Helper()
	var rows []storekit.NotificationRow
	cur, err := s.Database().Collection(notificationCollection).Find(testContext(t), bson.D{{Key: "task_id", Value: taskID}})
	if err != nil {
		t.Fatal(err)
	}
	if err := cur.All(testContext(t), &rows); err != nil {
		t.Fatal(err)
	}
	out := map[string]int{}
	for _, r := range rows {
		out[fmt.Sprintf("%s %s:%s#%d", r.TriggerKind, r.RecipientType, r.RecipientID, r.Revision)]++
	}
	return out
}

// pendingNotifications counts the rows still queued in the task's aggregate.
func pendingNotifications(t *testing.T, s *docstore.Store, taskID string) int {
	t.Helper()
	var d struct {
		Pending []bson.Raw `bson:"pending_notifications"`
	}
	if err := s.Database().Collection(docstore.Aggregate).FindOne(testContext(t), bson.D{{Key: "_id", Value: taskID}}).Decode(&d); err != nil {
		t.Fatal(err)
	}
	return len(d.Pending)
}

func assignBy(actor models.Actor, revision int, to string) models.MutateFunc {
	return func(now time.Time, cur models.Task, prior *models.Operation) (models.Change, error) {
		who := models.ParticipantRef{Tenant: cur.Tenant, Provider: actor.Subject.Provider, Type: models.UserParticipant, ID: to}
		return models.Assign(cur, models.Command{ExpectedRevision: revision, Actor: actor, Prior: prior}, who, "", now)
	}
}

// TestNotificationsRelayedOnceAfterCrash: the relay dies after inserting a creation's
// notifications and before pulling them from the aggregate. They are then in both places; the
// next pass pulls them and inserts nothing twice, and the excluded user got none.
func TestNotificationsRelayedOnceAfterCrash(t *testing.T) {
	s := openStore(t, nil)
	ctx := testContext(t)
	_, heal := docstore.CrashAt(s, docstore.AfterRelayInsert)
	task := createTask(t, s, &testfactory.TaskOpts{Candidates: []string{"ann", "bob"}, Groups: []string{"clerks"}, Excluded: []string{"mallory"}})
	heal()
	want := map[string]int{"task-available user:ann#1": 1, "task-available user:bob#1": 1, "task-available group:clerks#1": 1}
	if got := notificationKeys(t, s, task.ID); fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("rows after the crashed relay %v, want %v", got, want)
	}
	if n := pendingNotifications(t, s, task.ID); n != 3 {
		t.Fatalf("%d rows queued in the aggregate after the crash, want 3", n)
	}
	if _, err := s.RelayPass(ctx, 10); err != nil {
		t.Fatal(err)
	}
	if n := pendingNotifications(t, s, task.ID); n != 0 {
		t.Fatalf("%d rows still queued after the pass", n)
	}
	if got := notificationKeys(t, s, task.ID); fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("rows after the pass %v, want %v", got, want)
	}
}

// TestNotificationRolledForwardWithItsChange: a writer dies between claiming the version and
// writing the aggregate. Its notification exists exactly when its change does: none while the
// claim is young, one after a reader rolled the change forward and the relay ran, and a second
// pass writes no other.
func TestNotificationRolledForwardWithItsChange(t *testing.T) {
	clock := &testfactory.Clock{}
	s := openStore(t, clock)
	ctx := testContext(t)
	task := createTask(t, s, &testfactory.TaskOpts{Candidates: []string{"ann", "bob"}})
	boss := testfactory.Manager("t1", "boss")

	_, heal := docstore.CrashAt(s, docstore.AfterClaim)
	if _, err := s.Mutate(ctx, "t1", task.ID, "", assignBy(boss, task.Revision, "bob")); !errors.Is(err, docstore.ErrKilled) {
		t.Fatalf("Mutate = %v, want the injected crash", err)
	}
	heal()
	if got := notificationKeys(t, s, task.ID); got["task-assigned user:bob#2"] != 0 {
		t.Fatalf("a notification of a change not written yet: %v", got)
	}
	clock.Advance(time.Minute)
	if got, err := s.Get(ctx, "t1", task.ID); err != nil || got.Assignee == nil || got.Assignee.ID != "bob" {
		t.Fatalf("Get after the grace = %+v, %v; want the assignment rolled forward", got, err)
	}
	for range 2 {
		if _, err := s.RelayPass(ctx, 10); err != nil {
			t.Fatal(err)
		}
		if got := notificationKeys(t, s, task.ID); got["task-assigned user:bob#2"] != 1 || len(got) != 3 {
			t.Fatalf("rows %v: want the two task-available and one task-assigned to bob", got)
		}
	}
}

// TestNotificationBatchSkipsTakenKeys: one batch holding a key twice and a key the change
// wrote writes each new key once and counts only those (FerretDB's unordered insert reports
// each duplicate and goes on).
func TestNotificationBatchSkipsTakenKeys(t *testing.T) {
	s := openStore(t, nil)
	ctx := testContext(t)
	task := createTask(t, s, &testfactory.TaskOpts{Candidates: []string{"ann"}})
	now, err := s.Now(ctx)
	if err != nil {
		t.Fatal(err)
	}
	user := func(id string) models.ParticipantRef {
		return models.ParticipantRef{Tenant: "t1", Provider: testfactory.Worker("t1", id).Subject.Provider, Type: models.UserParticipant, ID: id}
	}
	due := storekit.NewNotification(&task, models.TriggerDueSoon, 99, user("ann"), nil, now)
	twice := due
	twice.ID = models.NewID()
	taken := storekit.NewNotification(&task, models.TriggerTaskAvailable, int64(task.Revision), user("ann"), nil, now)
	hostile := storekit.NewNotification(&task, models.TriggerDueSoon, 99, user("z/?#ü x"), nil, now)
	n, err := s.AddNotifications(ctx, []models.Notification{due, twice, taken, hostile})
	if err != nil || n != 2 {
		t.Fatalf("AddNotifications = %d, %v; want 2 written (the repeated and the taken key skipped)", n, err)
	}
	if n, err := s.AddNotifications(ctx, []models.Notification{due, hostile}); err != nil || n != 0 {
		t.Fatalf("AddNotifications again = %d, %v; want 0", n, err)
	}
	if got := notificationKeys(t, s, task.ID); len(got) != 3 || got["due-soon user:z/?#ü x#99"] != 1 {
		t.Fatalf("rows %v", got)
	}
}

// TestNotificationLeasesUnderRace: eight workers claiming the same due rows at once lease each
// row to one of them (FerretDB checks a filter when it reads, not when it writes: the claims
// keep two nodes from both leasing a row).
func TestNotificationLeasesUnderRace(t *testing.T) {
	s := openStore(t, nil)
	ctx := testContext(t)
	task := createTask(t, s, &testfactory.TaskOpts{Candidates: []string{"ann"}})
	now, err := s.Now(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var rows []models.Notification
	for i := range 20 {
		to := models.ParticipantRef{Tenant: "t1", Provider: "p", Type: models.UserParticipant, ID: fmt.Sprintf("u%02d", i)}
		rows = append(rows, storekit.NewNotification(&task, models.TriggerDueSoon, 1, to, nil, now))
	}
	if n, err := s.AddNotifications(ctx, rows); err != nil || n != 20 {
		t.Fatalf("AddNotifications = %d, %v", n, err)
	}
	var mu sync.Mutex
	leased := map[string]int{}
	var wg sync.WaitGroup
	for w := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			got, err := s.ClaimNotifications(ctx, fmt.Sprintf("node-%d", w), 10, time.Minute)
			if err != nil {
				t.Error(err)
				return
			}
			mu.Lock()
			defer mu.Unlock()
			for _, n := range got {
				leased[n.ID]++
			}
		}()
	}
	wg.Wait()
	total := len(leased)
	for id, k := range leased {
		if k != 1 {
			t.Errorf("row %s leased %d times", id, k)
		}
	}
	// The creation's own row is due too: 21 rows in all.
	if total != 21 {
		t.Fatalf("%d rows leased, want all 21", total)
	}
}

// TestMarkReadAndSettleKeepEachOther: a visible row the worker is still retrying is marked
// read while the worker settles it: both land (FerretDB's update writes back the whole
// document it read, so without claims one would undo the other).
func TestMarkReadAndSettleKeepEachOther(t *testing.T) {
	s := openStore(t, nil)
	ctx := testContext(t)
	createTask(t, s, &testfactory.TaskOpts{Candidates: []string{"ann"}})
	ann := testfactory.Worker("t1", "ann").Subject
	for round := range 6 {
		got, err := s.ClaimNotifications(ctx, "w", 10, time.Minute)
		if err != nil || len(got) != 1 {
			t.Fatalf("round %d: claimed %d, %v", round, len(got), err)
		}
		n := got[0]
		final := round == 5
		out := models.NotificationOutcome{State: models.NotificationPending, Visible: true, Email: models.ChannelFailed}
		if final {
			out.State = models.NotificationDone
		}
		var wg sync.WaitGroup
		wg.Add(2)
		go func() {
			defer wg.Done()
			if err := s.SettleNotification(ctx, n, out); err != nil {
				t.Error(err)
			}
		}()
		go func() {
			defer wg.Done()
			if _, err := s.MarkNotificationsRead(ctx, "t1", ann, nil, true); err != nil {
				t.Error(err)
			}
		}()
		wg.Wait()
		if _, err := s.MarkNotificationsRead(ctx, "t1", ann, nil, true); err != nil {
			t.Fatal(err)
		}
		page, err := s.Notifications(ctx, models.NotificationQuery{Tenant: "t1", Recipient: ann})
		if err != nil || len(page.Items) != 1 {
			t.Fatalf("round %d: list %+v, %v", round, page, err)
		}
		it := page.Items[0]
		if it.ReadAt == nil || it.Email != models.ChannelFailed || it.Lease != nil || page.Unread != 0 {
			t.Fatalf("round %d: row %+v (unread %d): want read, settled and free", round, it, page.Unread)
		}
		if final && it.State != models.NotificationDone {
			t.Fatalf("state %s, want done", it.State)
		}
		if !final && (it.State != models.NotificationPending || it.Attempts != round+1) {
			t.Fatalf("round %d: state %s, %d attempts", round, it.State, it.Attempts)
		}
	}
}

// TestPeopleWritersKeepEachOther: requests recording a person and a settings page storing
// their preferences at the same moment both land: the identity and the preferences.
func TestPeopleWritersKeepEachOther(t *testing.T) {
	s := openStore(t, nil)
	ctx := testContext(t)
	ann := models.ParticipantRef{Tenant: "t1", Provider: "p", Type: models.UserParticipant, ID: "ann/?# ü"}
	prefs := models.NotificationPreferences{Email: map[models.NotificationTrigger]bool{models.TriggerDueSoon: true}, Digest: models.DigestDaily}
	var wg sync.WaitGroup
	for i := range 8 {
		wg.Add(2)
		go func() {
			defer wg.Done()
			p := models.Person{Tenant: "t1", User: ann, Email: "ann@example.com", Language: "de", Manager: true}
			p.User.DisplayName = fmt.Sprintf("Ann %d", i)
			if _, err := s.RecordPerson(ctx, p, 0); err != nil {
				t.Error(err)
			}
		}()
		go func() {
			defer wg.Done()
			if _, err := s.SetNotificationPreferences(ctx, "t1", ann, prefs); err != nil {
				t.Error(err)
			}
		}()
	}
	wg.Wait()
	got, err := s.Person(ctx, "t1", ann)
	if err != nil {
		t.Fatal(err)
	}
	if got.Email != "ann@example.com" || got.Language != "de" || !got.Manager || got.User.DisplayName == "" {
		t.Fatalf("identity %+v lost", got)
	}
	if !got.Preferences.EmailOn(models.TriggerDueSoon) || got.Preferences.Digest != models.DigestDaily {
		t.Fatalf("preferences %+v lost", got.Preferences)
	}
	n, err := s.Database().Collection("user_task_people").CountDocuments(ctx, bson.D{{Key: "tenant_id", Value: "t1"}})
	if err != nil || n != 1 {
		t.Fatalf("%d records of one person, %v", n, err)
	}
}
