package docstore_test

import (
	"context"
	"log/slog"
	"strings"
	"testing"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"

	"usertasks/docstore"
	"usertasks/models"
	"usertasks/store"
	"usertasks/storetest/docharness"
	"usertasks/testfactory"
)

// A creation that died between its place and its task leaves a place without a task: while it
// is younger than ClaimGrace it is a creation on its way (no finding, not swept); past that the
// audit reports it and SweepStrayPlaces frees it, and nothing else. A terminal task whose
// release waits for the relay holds its place in flight, not as a finding.
func TestStrayPlaces(t *testing.T) {
	ctx := testContext(t)
	s := openStore(t, nil)
	docstore.SetClaimGrace(s, time.Minute)
	held := createTask(t, s, &testfactory.TaskOpts{Tenant: "cap", CancellationEnabled: true})
	now, err := s.Now(ctx)
	if err != nil {
		t.Fatal(err)
	}
	young, old := placeAt("cap", 7001, "died-just-now", now), placeAt("cap", 7002, "died-long-ago", now.Add(-2*time.Minute))
	if _, err := s.Database().Collection(counterCollection).InsertOne(ctx, young); err != nil {
		t.Fatal(err)
	}

	audit := func() []store.AuditFinding {
		t.Helper()
		found, err := s.AuditTenantCounters(ctx, "cap")
		if err != nil {
			t.Fatal(err)
		}
		return found
	}
	if found := audit(); len(found) != 0 {
		t.Fatalf("a place younger than ClaimGrace is reported: %+v", found)
	}
	if n, err := s.SweepStrayPlaces(ctx); err != nil || n != 0 {
		t.Fatalf("sweep freed %d, %v; want 0 while the creation may be on its way", n, err)
	}

	if _, err := s.Database().Collection(counterCollection).InsertOne(ctx, old); err != nil {
		t.Fatal(err)
	}
	if found := audit(); len(found) != 1 || !strings.Contains(found[0].Message, "open-task counter is 3 (1 of them in flight), the tenant has 1") {
		t.Fatalf("findings %+v, want the old stray place reported", found)
	}
	if n, err := s.SweepStrayPlaces(ctx); err != nil || n != 1 {
		t.Fatalf("sweep freed %d, %v; want the old stray place", n, err)
	}
	if found := audit(); len(found) != 0 {
		t.Fatalf("after the sweep: %+v", found)
	}
	if got := docharness.Harness().CounterStripes(t, s, "cap"); len(got) != 2 {
		t.Fatalf("places left %v, want the held task's and the young one", got)
	}

	t.Run("ReleaseWaitingForTheRelay", func(t *testing.T) {
		op := models.NewID()
		if _, err := s.Mutate(ctx, "cap", held.ID, op, cancelBy(testfactory.Manager("cap", "boss"), held.Revision, op)); err != nil {
			t.Fatal(err)
		}
		if _, err := s.Mutate(ctx, "cap", held.ID, "", finalize); err != nil {
			t.Fatal(err)
		}
		// The state just before the relay frees the place: the place is there and the
		// finalized aggregate waits for the relay with the release pending.
		if _, err := s.Database().Collection(counterCollection).InsertOne(ctx, placeAt("cap", 7003, held.ID, now)); err != nil {
			t.Fatal(err)
		}
		release := bson.D{{Key: "id", Value: models.NewID()}, {Key: "kind", Value: "release-place"}, {Key: "exclude", Value: nil},
			{Key: "created_at", Value: now}}
		if _, err := s.Database().Collection(docstore.Aggregate).UpdateOne(ctx, bson.D{{Key: "_id", Value: held.ID}, {Key: "tenant_id", Value: "cap"}},
			bson.D{{Key: "$set", Value: bson.D{{Key: "relay_due", Value: true}, {Key: "pending_effects", Value: bson.A{release}}}}}); err != nil {
			t.Fatal(err)
		}
		if found := audit(); len(found) != 0 {
			t.Fatalf("a release waiting for the relay is reported: %+v", found)
		}
		if n, err := s.SweepStrayPlaces(ctx); err != nil || n != 0 {
			t.Fatalf("sweep freed %d, %v; the relay frees that place", n, err)
		}
		if _, err := s.RelayPass(ctx, 10); err != nil {
			t.Fatal(err)
		}
		if got := docharness.Harness().CounterStripes(t, s, "cap"); len(got) != 1 {
			t.Fatalf("places after the relay %v, want the young one only", got)
		}
	})
}

// placeAt is a place of tenant's open-task counter as a creation takes it: held by taskID since at.
func placeAt(tenant string, stripe int, taskID string, at time.Time) bson.D {
	return bson.D{{Key: "tenant_id", Value: tenant}, {Key: "stripe", Value: stripe}, {Key: "open_tasks", Value: 1},
		{Key: "task_id", Value: taskID}, {Key: "updated_at", Value: at}}
}

// A creation killed just before a restart leaves its place in flight at the relay's sweep at
// start; the relay sweeps once more when that place's grace is over, so the place is freed
// within ClaimGrace of the start, not at the next steady sweep minutes later.
func TestRelayFreesACrashedCreationsPlaceAfterItsGrace(t *testing.T) {
	ctx := testContext(t)
	s := openStore(t, nil)
	const grace = 2 * time.Second
	docstore.SetClaimGrace(s, grace)
	now, err := s.Now(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Database().Collection(counterCollection).InsertOne(ctx, placeAt("crash", 7001, "killed-mid-creation", now)); err != nil {
		t.Fatal(err)
	}
	run, stop := context.WithCancel(ctx)
	done := make(chan struct{})
	go func() { defer close(done); s.RunRelay(run, 100*time.Millisecond, slog.New(slog.DiscardHandler)) }()
	defer func() { stop(); <-done }()

	places := func() int {
		return len(docharness.Harness().CounterStripes(t, s, "crash"))
	}
	time.Sleep(grace / 2)
	if n := places(); n != 1 {
		t.Fatalf("%d places while the creation may be on its way, want 1", n)
	}
	deadline := time.Now().Add(2 * grace)
	for places() != 0 {
		if time.Now().After(deadline) {
			t.Fatalf("the place of the killed creation is still held %s after the relay started", 2*grace+grace/2)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// A caller that gives up between a creation's place and its task (the client went away, its
// request's context ended) must not leave the place without its task: only the sweep would
// free it, up to ten minutes later, and the audit reports it once ClaimGrace is over. The
// creation finishes what it started, so place and task agree whatever it returns.
func TestCreationTheCallerGivesUpOnKeepsPlaceAndTaskTogether(t *testing.T) {
	s := openStore(t, nil)
	ctx, cancel := context.WithCancel(testContext(t))
	docstore.CancelAt(s, docstore.AfterPlace, cancel)
	p := testfactory.Projection(&testfactory.TaskOpts{Tenant: "gone"})
	key := models.MaterializationKey(p.Tenant, p.Workflow.InstanceID, p.Workflow.ActivityInstanceID)
	_, _, created := s.Create(ctx, p.Tenant, key, p.Workflow.BookmarkID, func(now time.Time) (models.Change, error) {
		return models.Project(p, now)
	})
	if ctx.Err() == nil {
		t.Fatal("the step after the place was not reached")
	}
	check := testContext(t)
	tasks, err := s.Database().Collection(docstore.Aggregate).CountDocuments(check, bson.D{{Key: "tenant_id", Value: "gone"}})
	if err != nil {
		t.Fatal(err)
	}
	places := docharness.Harness().CounterStripes(t, s, "gone")
	if int(tasks) != len(places) {
		t.Fatalf("create returned %v; %d tasks and %d places, want them equal", created, tasks, len(places))
	}
	if created != nil || tasks != 1 {
		t.Fatalf("create returned %v with %d tasks: a write started is finished even if the caller goes", created, tasks)
	}
}
