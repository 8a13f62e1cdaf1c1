package docstore_test

import (
	"errors"
	"sync"
	"testing"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"
	"go.mongodb.org/mongo-driver/v2/mongo/options"

	"usertasks/docstore"
	"usertasks/docstore/docstoretest"
)

// casFilter is the guard a mutation writes under (docs/document-store.md): the task, its tenant,
// the revision and event sequence the decision read.
func casFilter(id, tenant string, revision, seq int) bson.D {
	return bson.D{{Key: "_id", Value: id}, {Key: "tenant_id", Value: tenant},
		{Key: "revision", Value: revision}, {Key: "last_event_seq", Value: seq}}
}

func casUpdate(event string) bson.D {
	return bson.D{
		{Key: "$inc", Value: bson.D{{Key: "revision", Value: 1}, {Key: "last_event_seq", Value: 1}}},
		{Key: "$push", Value: bson.D{{Key: "pending_events", Value: bson.D{{Key: "id", Value: event}}}}},
		{Key: "$set", Value: bson.D{{Key: "relay_due", Value: true}}},
	}
}

type casTask struct {
	Revision      int  `bson:"revision"`
	LastEventSeq  int  `bson:"last_event_seq"`
	RelayDue      bool `bson:"relay_due"`
	PendingEvents []struct {
		ID string `bson:"id"`
	} `bson:"pending_events"`
}

// TestFindOneAndUpdateCAS: the compare-and-swap the design relies on. A write under the read
// revision applies $inc and $push in one step; a stale revision, a moved event sequence or
// another tenant matches nothing and changes nothing; of concurrent writers that read the same
// revision exactly one wins.
func TestFindOneAndUpdateCAS(t *testing.T) {
	ctx, db := testContext(t), openStore(t, nil).Database()
	tasks := db.Collection(docstore.Aggregate)
	_, err := tasks.InsertOne(ctx, bson.M{"_id": "task-1", "tenant_id": "acme", "revision": 3, "last_event_seq": 5,
		"materialization_key": "m-1", "bookmark_id": "b-1"})
	if err != nil {
		t.Fatal(err)
	}
	read := func(t *testing.T) casTask {
		t.Helper()
		var got casTask
		if err := tasks.FindOne(ctx, bson.M{"_id": "task-1"}).Decode(&got); err != nil {
			t.Fatal(err)
		}
		return got
	}

	t.Run("ErrNoDocuments", func(t *testing.T) {
		for name, filter := range map[string]bson.D{
			"StaleRevision": casFilter("task-1", "acme", 2, 5),
			"MovedEventSeq": casFilter("task-1", "acme", 3, 4),
			"OtherTenant":   casFilter("task-1", "globex", 3, 5),
			"HostileTaskID": casFilter("task-1/../x?#", "acme", 3, 5),
		} {
			err := tasks.FindOneAndUpdate(ctx, filter, casUpdate("e-"+name)).Err()
			if !errors.Is(err, mongo.ErrNoDocuments) {
				t.Errorf("%s: %v, want ErrNoDocuments", name, err)
			}
		}
		if got := read(t); got.Revision != 3 || got.LastEventSeq != 5 || len(got.PendingEvents) != 0 || got.RelayDue {
			t.Fatalf("a refused write changed the task: %+v", got)
		}
	})

	t.Run("OK", func(t *testing.T) {
		var got casTask
		err := tasks.FindOneAndUpdate(ctx, casFilter("task-1", "acme", 3, 5), casUpdate("e-6"),
			options.FindOneAndUpdate().SetReturnDocument(options.After)).Decode(&got)
		if err != nil {
			t.Fatal(err)
		}
		if got.Revision != 4 || got.LastEventSeq != 6 || len(got.PendingEvents) != 1 || got.PendingEvents[0].ID != "e-6" || !got.RelayDue {
			t.Fatalf("after the write: %+v", got)
		}
	})

	t.Run("ConcurrentWritersOneWins", func(t *testing.T) {
		// FerretDB 1.x runs findAndModify as a query followed by a replace by _id, so writers
		// that read the same revision all "win" and overwrite each other (docs/document-store.md,
		// "What FerretDB 1.x does not make atomic"); MongoDB applies the filter atomically.
		if !docstoretest.RealMongoDB() {
			t.Skip("findOneAndUpdate is not atomic under concurrency on FerretDB 1.x; runs on USERTASKS_TEST_MONGODB_URL")
		}
		won := race(t, func(i int) error {
			return tasks.FindOneAndUpdate(ctx, casFilter("task-1", "acme", 4, 6), casUpdate(string(rune('a'+i)))).Err()
		}, mongo.ErrNoDocuments)
		if got := read(t); won != 1 || got.Revision != 5 || len(got.PendingEvents) != 2 {
			t.Fatalf("%d writers won, task %+v; want exactly one, revision 5, two pending events", won, got)
		}
	})
}

// TestVersionClaimCAS: the primitive every contended write stands on where findOneAndUpdate is
// not atomic (FerretDB 1.x): a unique insert of the document's next version. Of concurrent
// writers that read the same version exactly one claims it, the others get E11000.
func TestVersionClaimCAS(t *testing.T) {
	ctx, db := testContext(t), openStore(t, nil).Database()
	claims := db.Collection(docstore.ClaimCollection)
	won := race(t, func(i int) error {
		_, err := claims.InsertOne(ctx, bson.M{"_id": "acme/task-1/5", "writer": i})
		return err
	}, nil)
	if won != 1 {
		t.Fatalf("%d writers claimed version 5, want exactly one", won)
	}
	if n, err := claims.CountDocuments(ctx, bson.M{}); err != nil || n != 1 {
		t.Fatalf("%d claims, %v; want 1", n, err)
	}
}

// race runs writers concurrently and returns how many succeeded; every other one must fail
// with lost (or E11000 when lost is nil).
func race(t *testing.T, write func(i int) error, lost error) int {
	t.Helper()
	const writers = 8
	var wg sync.WaitGroup
	results := make(chan error, writers)
	for i := range writers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			results <- write(i)
		}()
	}
	wg.Wait()
	close(results)
	won := 0
	for err := range results {
		switch {
		case err == nil:
			won++
		case lost == nil && !mongo.IsDuplicateKeyError(err), lost != nil && !errors.Is(err, lost):
			t.Errorf("a losing writer: %v", err)
		}
	}
	return won
}
