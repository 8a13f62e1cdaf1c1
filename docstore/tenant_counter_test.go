package docstore_test

import (
	"errors"
	"testing"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"

	"usertasks/docstore"
	"usertasks/models"
	"usertasks/storekit"
	"usertasks/storetest/docharness"
	"usertasks/testfactory"
)

// openCapped opens a Store on url (testfactory.Database) with the open-task limit.
func openCapped(t *testing.T, url string, limit int) *docstore.Store {
	t.Helper()
	return docStore(t, testfactory.Open(t, url, &testfactory.StoreOpts{OpenTasksPerTenant: limit}))
}

func tryCreate(t *testing.T, s *docstore.Store, tenant string) error {
	t.Helper()
	p := testfactory.Projection(&testfactory.TaskOpts{Tenant: tenant})
	key := models.MaterializationKey(p.Tenant, p.Workflow.InstanceID, p.Workflow.ActivityInstanceID)
	_, _, err := s.Create(testContext(t), p.Tenant, key, p.Workflow.BookmarkID, func(now time.Time) (models.Change, error) {
		return models.Project(p, now)
	})
	return err
}

// A limit lowered below what the tenant holds leaves places at or above the limit: creations
// are refused until the tenant is below the new limit, then fill it exactly, whichever places
// the ended tasks held.
func TestCapacityLoweredLimitCountsPlacesAboveIt(t *testing.T) {
	url := testfactory.Database(t, testfactory.Mongo)
	s := openCapped(t, url, 100)
	var open []models.Task
	for i := 0; i < 8; i++ {
		open = append(open, createTask(t, s, &testfactory.TaskOpts{Tenant: "cap", CancellationEnabled: true}))
	}
	s = openCapped(t, url, 6)
	var ce *models.CapacityError
	if err := tryCreate(t, s, "cap"); !errors.As(err, &ce) || ce.Limit != 6 {
		t.Fatalf("create over a lowered limit: %v, want a capacity error of limit 6", err)
	}
	for _, task := range open[:3] {
		op := models.NewID()
		if _, err := s.Mutate(testContext(t), "cap", task.ID, op, cancelBy(testfactory.Manager("cap", "boss"), task.Revision, op)); err != nil {
			t.Fatal(err)
		}
		if _, err := s.Mutate(testContext(t), "cap", task.ID, "", finalize); err != nil {
			t.Fatal(err)
		}
	}
	if err := tryCreate(t, s, "cap"); err != nil {
		t.Fatalf("create with 5 of 6 open: %v", err)
	}
	if err := tryCreate(t, s, "cap"); !errors.As(err, &ce) {
		t.Fatalf("create with 6 of 6 open: %v, want a capacity error", err)
	}
	if n := len(docharness.Harness().CounterStripes(t, s, "cap")); n != 6 {
		t.Fatalf("%d places counted, want 6", n)
	}
	if findings, err := s.AuditTenantCounters(testContext(t), ""); err != nil || len(findings) != 0 {
		t.Fatalf("audit: %+v, %v", findings, err)
	}
}

// The audit reports a place whose task was never written (a creation that died between the
// two inserts).
func TestAuditTenantCountersFindsAStrayPlace(t *testing.T) {
	s := openCapped(t, testfactory.Database(t, testfactory.Mongo), 10)
	createTask(t, s, &testfactory.TaskOpts{Tenant: "cap"})
	now, _ := s.Now(testContext(t))
	// The task holds a place picked at random: take the first other one for a task never written.
	taken := false
	for place := 9; place >= 0 && !taken; place-- {
		_, err := s.Database().Collection(counterCollection).InsertOne(testContext(t), placeAt("cap", place, "never-written", now.Add(-time.Hour))) // older than ClaimGrace
		if err != nil && !mongo.IsDuplicateKeyError(err) {
			t.Fatalf("take place %d: %v", place, err)
		}
		taken = err == nil
	}
	if !taken {
		t.Fatal("no free place for the stray")
	}
	findings, err := s.AuditTenantCounters(testContext(t), "cap")
	if err != nil || len(findings) != 1 || findings[0].Tenant != "cap" || findings[0].Invariant != storekit.InvTenantCounter {
		t.Fatalf("audit: %+v, %v; want one tenant-counter finding", findings, err)
	}
}

// A resumption id another task holds fails the write that queues it before anything is
// written; the relay never takes a foreign duplicate for its own earlier insert.
func TestResumptionIDOfAnotherTask(t *testing.T) {
	s := openStore(t, nil)
	ctx := testContext(t)
	now, _ := s.Now(ctx)
	mine := &models.Resumption{ID: models.NewID(), Tenant: "t1", TaskID: "task-a"}
	if err := s.ReserveResumptionID(ctx, mine, now); err != nil {
		t.Fatal(err)
	}
	if err := s.ReserveResumptionID(ctx, mine, now); err != nil {
		t.Fatalf("the same task reserving again: %v", err)
	}
	foreign := *mine
	foreign.TaskID = "task-b"
	if err := s.ReserveResumptionID(ctx, &foreign, now); models.ErrorCode(err) != models.CodeRevisionConflict {
		t.Fatalf("another task reserving the id: %v, want revision-conflict", err)
	}

	stored := storekit.ResumptionRow{ID: mine.ID, TenantID: "t1", TaskID: "task-a", OperationID: "op", State: string(models.DeliveryPending)}
	if _, err := s.Database().Collection(resumptionCollection).InsertOne(ctx, stored); err != nil {
		t.Fatal(err)
	}
	if err := s.InsertResumptionOnce(ctx, stored); err != nil {
		t.Fatalf("the task's own entry again: %v", err)
	}
	other := stored
	other.TaskID, other.OperationID = "task-b", "op-b"
	if err := s.InsertResumptionOnce(ctx, other); !errors.Is(err, docstore.ErrForeignResumption) {
		t.Fatalf("another task's entry: %v, want ErrForeignResumption", err)
	}
	if n, _ := s.Database().Collection(resumptionCollection).CountDocuments(ctx, bson.D{{Key: "task_id", Value: "task-b"}}); n != 0 {
		t.Fatalf("%d resumptions of task-b stored", n)
	}
}
