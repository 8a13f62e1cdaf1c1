package docstore_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"

	"usertasks/docstore"
	"usertasks/models"
	"usertasks/storetest"
	"usertasks/storetest/docharness"
	"usertasks/testfactory"
)

const testPurgeAge = 90 * 24 * time.Hour

// closeTask claims, completes and finalizes task: a Completed task with a settled resumption.
func closeTask(t *testing.T, s *docstore.Store, task models.Task) {
	t.Helper()
	ctx := testContext(t)
	ann := testfactory.Worker(task.Tenant, "ann")
	transition(t, s, task, ann)
	if _, err := s.Mutate(ctx, task.Tenant, task.ID, "", finalize); err != nil {
		t.Fatal(err)
	}
}

// transition claims and completes task: a Completing task with an accepted operation.
func transition(t *testing.T, s *docstore.Store, task models.Task, ann models.Actor) {
	t.Helper()
	ctx := testContext(t)
	claim, complete := models.NewID(), models.NewID()
	if _, err := s.Mutate(ctx, task.Tenant, task.ID, claim, claimBy(ann, task.Revision, claim)); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Mutate(ctx, task.Tenant, task.ID, complete, completeBy(ann, task.Revision+1, complete, "")); err != nil {
		t.Fatal(err)
	}
}

// insertGuestRows stores an invitation with its delivery and guest session for task, as the
// invitations' code stores them (the logical fields), and returns the invitation's id.
func insertGuestRows(t *testing.T, s *docstore.Store, task models.Task, status, deliveryState string, updated time.Time) string {
	t.Helper()
	ctx := testContext(t)
	inv := models.NewID()
	docs := []struct {
		coll string
		doc  bson.D
	}{
		{invitationCollection, bson.D{{Key: "_id", Value: inv}, {Key: "tenant_id", Value: task.Tenant}, {Key: "task_id", Value: task.ID},
			{Key: "status", Value: status}, {Key: "token_hash", Value: models.NewID()}, {Key: "expires_at", Value: updated.Add(24 * time.Hour)},
			{Key: "updated_at", Value: updated}}},
		{deliveryCollection, bson.D{{Key: "_id", Value: models.NewID()}, {Key: "tenant_id", Value: task.Tenant}, {Key: "task_id", Value: task.ID},
			{Key: "invitation_id", Value: inv}, {Key: "state", Value: deliveryState}, {Key: "idempotency_key", Value: models.NewID()},
			{Key: "updated_at", Value: updated}}},
		{guestSessionCollection, bson.D{{Key: "_id", Value: models.NewID()}, {Key: "tenant_id", Value: task.Tenant}, {Key: "task_id", Value: task.ID},
			{Key: "invitation_id", Value: inv}, {Key: "token_hash", Value: models.NewID()}, {Key: "expires_at", Value: updated.Add(time.Hour)}}},
	}
	for _, d := range docs {
		if _, err := s.Database().Collection(d.coll).InsertOne(ctx, d.doc); err != nil {
			t.Fatal(err)
		}
	}
	return inv
}

// taskDocuments counts the documents of the task in every collection that holds its rows.
func taskDocuments(t *testing.T, s *docstore.Store, id string) int {
	t.Helper()
	n := 0
	for _, coll := range []string{docstore.Aggregate, eventCollection, operationCollection, resumptionCollection, invitationCollection,
		deliveryCollection, guestSessionCollection, docstore.ClaimCollection, counterCollection} {
		field := "task_id"
		if coll == docstore.Aggregate {
			field = "_id"
		}
		c, err := s.Database().Collection(coll).CountDocuments(testContext(t), bson.D{{Key: field, Value: id}})
		if err != nil {
			t.Fatal(err)
		}
		n += int(c)
	}
	return n
}

// TestPurgeTerminal: aged terminal tasks go with every document of theirs, in pages, resumable
// after a cancellation and after a crash that left a task marked; open, transitional, young and
// unhealthy tasks, other tenants and the daily rollup stay.
func TestPurgeTerminal(t *testing.T) {
	clock := &testfactory.Clock{}
	s := openStore(t, clock)
	ctx := testContext(t)
	full := createTask(t, s, &testfactory.TaskOpts{Candidates: []string{"ann", "bob"}, Groups: []string{"g"},
		Excluded: []string{"eve"}, Tags: []string{"a", "b"}, Instructions: "secret"})
	closeTask(t, s, full)
	start, _ := s.Now(ctx)
	insertGuestRows(t, s, full, string(models.InvitationRevoked), string(models.DeliveryDelivered), start)
	gone := []models.Task{full}
	for range 3 {
		task := createTask(t, s, &testfactory.TaskOpts{Candidates: []string{"ann"}})
		closeTask(t, s, task)
		gone = append(gone, task)
	}
	open := createTask(t, s, &testfactory.TaskOpts{Candidates: []string{"ann"}})
	transitional := createTask(t, s, &testfactory.TaskOpts{Candidates: []string{"ann"}})
	ann := testfactory.Worker("t1", "ann")
	transition(t, s, transitional, ann)
	unhealthy := createTask(t, s, &testfactory.TaskOpts{Candidates: []string{"ann"}})
	closeTask(t, s, unhealthy)
	// A finding on a terminal task (as one left from before it closed), written behind the store's back.
	if _, err := s.Database().Collection(docstore.Aggregate).UpdateOne(ctx, bson.D{{Key: "_id", Value: unhealthy.ID}}, bson.D{{Key: "$set", Value: bson.D{
		{Key: "health_severity", Value: string(models.SeverityAdvisory)}, {Key: "health_code", Value: models.HealthStaleTransition}}}}); err != nil {
		t.Fatal(err)
	}
	// Terminal with its accepted operation left behind; terminal with a pending resumption only
	// (the contract suite's tamperings).
	pendingOp := createTask(t, s, &testfactory.TaskOpts{Candidates: []string{"ann"}})
	transition(t, s, pendingOp, ann)
	pendingResume := createTask(t, s, &testfactory.TaskOpts{Candidates: []string{"ann"}})
	transition(t, s, pendingResume, ann)
	for _, tm := range []struct {
		what storetest.Tampering
		task models.Task
	}{{storetest.ForceCompleted, pendingOp}, {storetest.ForceCompleted, pendingResume}, {storetest.CompleteOperations, pendingResume}} {
		if err := docharness.Harness().Tamper(t, s, tm.what, tm.task.ID); err != nil {
			t.Fatalf("tamper %s: %v", tm.what, err)
		}
	}
	other := createTask(t, s, &testfactory.TaskOpts{Tenant: "t2", Candidates: []string{"ann"}})
	closeTask(t, s, other)
	clock.Advance(testPurgeAge + time.Hour)
	young := createTask(t, s, &testfactory.TaskOpts{Candidates: []string{"ann"}})
	closeTask(t, s, young)
	survivors := []models.Task{open, transitional, unhealthy, young, pendingOp, pendingResume}
	if n := docharness.Harness().CountRecords(t, s, "user_task_tags", map[string]any{"task_id": full.ID}); n != 2 {
		t.Fatalf("the full task has %d tag rows, want 2", n)
	}
	rollup, err := s.Database().Collection(docstore.DailyCountCollection).CountDocuments(ctx, bson.D{})
	if err != nil || rollup == 0 {
		t.Fatalf("rollup documents %d, %v", rollup, err)
	}
	policy := models.RetentionPolicy{TerminalAge: testPurgeAge, PageSize: 2}

	dry := policy
	dry.DryRun = true
	counts, err := s.Purge(ctx, "t1", dry, nil)
	if err != nil || counts.Tasks != len(gone) || counts.Invitations != 1 || counts.Deliveries != 1 || counts.GuestSessions != 1 ||
		counts.Exclusions != 1 || counts.Tags != 2 || counts.Candidates != 3+3 || counts.Resumptions != len(gone) ||
		counts.Operations < len(gone) || counts.Events < 4*len(gone) {
		t.Fatalf("dry run: %+v, %v", counts, err)
	}
	if _, err := s.Get(ctx, "t1", full.ID); err != nil {
		t.Fatalf("the dry run removed a task: %v", err)
	}

	c, cancel := context.WithCancel(ctx)
	pages := 0
	first, err := s.Purge(c, "t1", policy, func(models.PurgeCounts) { pages++; cancel() })
	if !errors.Is(err, context.Canceled) || pages != 1 || first.Tasks != 2 {
		t.Fatalf("cancelled run: %+v after %d pages, %v", first, pages, err)
	}
	// A crash after the mark: the next run finishes the marked task first.
	var next models.Task
	for _, task := range gone {
		if _, err := s.Get(ctx, "t1", task.ID); err == nil {
			next = task
			break
		}
	}
	now, _ := s.Now(ctx)
	if marked, err := s.MarkPurging(ctx, next.ID, now); err != nil || !marked {
		t.Fatalf("mark: %v, %v", marked, err)
	}
	if _, err := s.Get(ctx, "t1", next.ID); !errors.Is(err, models.ErrNotFound) {
		t.Fatalf("Get of a marked task: %v, want not found", err)
	}
	if _, err := s.Mutate(ctx, "t1", next.ID, "", finalize); !errors.Is(err, models.ErrNotFound) {
		t.Fatalf("Mutate of a marked task: %v, want not found", err)
	}
	rest, err := s.Purge(ctx, "t1", policy, nil)
	if err != nil || first.Tasks+rest.Tasks != len(gone) {
		t.Fatalf("rerun: %+v, %v; want %d tasks in all", rest, err, len(gone))
	}
	if again, err := s.Purge(ctx, "t1", policy, nil); err != nil || again.Total() != 0 {
		t.Fatalf("third run: %+v, %v", again, err)
	}

	for _, task := range gone {
		if n := docharness.Harness().CountRecords(t, s, "user_task_candidates", map[string]any{"task_id": task.ID}); n != 0 {
			t.Fatalf("purged task %s left %d candidates", task.ID, n)
		}
		if n := taskDocuments(t, s, task.ID); n != 0 {
			t.Fatalf("purged task %s left %d documents", task.ID, n)
		}
	}
	for _, task := range append(survivors, other) {
		if _, err := s.Get(ctx, task.Tenant, task.ID); err != nil {
			t.Fatalf("survivor %s: %v", task.ID, err)
		}
		if countIn(t, s, eventCollection, task.ID) == 0 {
			t.Fatalf("survivor %s lost its events", task.ID)
		}
	}
	if n, err := s.Database().Collection(docstore.DailyCountCollection).CountDocuments(ctx, bson.D{}); err != nil || n != rollup {
		t.Fatalf("rollup documents %d, was %d (%v)", n, rollup, err)
	}
	if _, err := s.Purge(ctx, "t1", models.RetentionPolicy{TerminalAge: -time.Hour}, nil); models.ErrorCode(err) != models.CodeValidationFailed {
		t.Fatalf("negative age: %v", err)
	}
}

// TestPurgeShorterPolicies: revoked and lapsed invitations go with their deliveries and
// sessions, unless a dispatcher holds the delivery or a guest holds the open task; finished
// outbox entries go, those of transitional tasks and pending ones stay.
func TestPurgeShorterPolicies(t *testing.T) {
	clock := &testfactory.Clock{}
	s := openStore(t, clock)
	ctx := testContext(t)
	start, _ := s.Now(ctx)
	task := createTask(t, s, &testfactory.TaskOpts{Candidates: []string{"ann"}})
	revoked := insertGuestRows(t, s, task, string(models.InvitationRevoked), string(models.DeliveryDelivered), start)
	lapsed := insertGuestRows(t, s, task, string(models.InvitationPending), string(models.DeliveryPending), start)
	leased := insertGuestRows(t, s, task, string(models.InvitationExpired), string(models.DeliveryPending), start)
	if _, err := s.Database().Collection(deliveryCollection).UpdateMany(ctx, bson.D{{Key: "invitation_id", Value: leased}},
		bson.D{{Key: "$set", Value: bson.D{{Key: "lease_expires_at", Value: start.Add(100 * testPurgeAge)}}}}); err != nil {
		t.Fatal(err)
	}
	closed := createTask(t, s, &testfactory.TaskOpts{Candidates: []string{"ann"}})
	closeTask(t, s, closed)
	transitional := createTask(t, s, &testfactory.TaskOpts{Candidates: []string{"ann"}})
	ann := testfactory.Worker("t1", "ann")
	transition(t, s, transitional, ann)
	// The transitional task's entry was delivered, and waits for the runtime's answer.
	if _, err := s.Database().Collection(resumptionCollection).UpdateMany(ctx, bson.D{{Key: "task_id", Value: transitional.ID}},
		bson.D{{Key: "$set", Value: bson.D{{Key: "state", Value: string(models.DeliveryDelivered)}}}}); err != nil {
		t.Fatal(err)
	}
	clock.Advance(testPurgeAge)
	got, err := s.Purge(ctx, "t1", models.DefaultRetentionPolicy(), nil)
	if err != nil {
		t.Fatal(err)
	}
	count := func(coll, field, value string) int {
		n, err := s.Database().Collection(coll).CountDocuments(ctx, bson.D{{Key: field, Value: value}})
		if err != nil {
			t.Fatal(err)
		}
		return int(n)
	}
	for _, inv := range []string{revoked, lapsed} {
		if n := count(invitationCollection, "_id", inv) + count(deliveryCollection, "invitation_id", inv) +
			count(guestSessionCollection, "invitation_id", inv); n != 0 {
			t.Fatalf("invitation %s left %d documents", inv, n)
		}
	}
	if count(invitationCollection, "_id", leased) != 1 || count(deliveryCollection, "invitation_id", leased) != 1 {
		t.Fatal("an invitation whose delivery is leased was purged")
	}
	if count(resumptionCollection, "task_id", closed.ID) != 0 || count(resumptionCollection, "task_id", transitional.ID) != 1 {
		t.Fatal("the resumption entries: want the terminal task's gone, the transitional task's kept")
	}
	if got.Invitations != 2 || got.Tasks != 0 || got.Resumptions != 1 {
		t.Fatalf("counts %+v", got)
	}
	if _, err := s.Get(ctx, "t1", closed.ID); err != nil {
		t.Fatal(err)
	}
}
