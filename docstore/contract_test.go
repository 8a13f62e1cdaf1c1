package docstore

import (
	"context"
	"errors"
	"testing"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"
	"go.mongodb.org/mongo-driver/v2/mongo/options"

	"usertasks/docstore/docstoretest"
	"usertasks/store"
	"usertasks/storetest"
	"usertasks/testfactory"
)

// TestContractMongo runs the store contract suite (storetest) on the document store:
// the embedded FerretDB, or the MongoDB at USERTASKS_TEST_MONGODB_URL. The store has the task
// aggregate (store.Store) and every group asserted below; the cases that need an option or a
// storage hook the document store cannot honour are reported "not applicable on MongoDB:
// <case> — <reason>".
func TestContractMongo(t *testing.T) {
	storetest.Run(t, mongoHarness())
}

func mongoHarness() storetest.Harness {
	return storetest.Harness{
		Name: "MongoDB",
		Open: func(t *testing.T, o storetest.Options) store.Store {
			return openContract(t, docstoretest.DatabaseURL(t), o, true)
		},
		Reopen: func(t *testing.T, st store.Store, o storetest.Options) store.Store {
			s := contractStore(t, st)
			// A store reopened inside a subtest was closed when that subtest ended.
			if err := s.Close(); err != nil && !errors.Is(err, mongo.ErrClientDisconnected) {
				t.Fatalf("close: %v", err)
			}
			return openContract(t, s.cfg.URL, o, false)
		},
		Unsupported: unsupported,
		Differs: map[string]string{
			// docs/document-store.md, "Contract suite".
			"RoundTrip/OK": "times are BSON dates, which hold milliseconds (the SQL store keeps microseconds)",
		},
		Tamper: func(t *testing.T, st store.Store, what storetest.Tampering, args ...any) error {
			return tamper(t, contractStore(t, st), what, args...)
		},
		CountRecords:    countRecords,
		CountContaining: countContaining,
		CounterStripes: func(t *testing.T, st store.Store, tenant string) []int {
			return counterStripes(t, contractStore(t, st), tenant)
		},
	}
}

// unsupported names the options the document store cannot honour: SQL statements are a SQL
// provider's; a write timeout is not built on the document store yet.
func unsupported(o storetest.Options) string {
	if o.OnSQL != nil {
		return "the case reads the SQL statements the store sends (a SQL provider's hook)"
	}
	if o.WriteTimeout != 0 {
		return "a write timeout: not built on the document store yet"
	}
	return ""
}

// openContract opens a Store on the database at url, migrating it first when fresh. A fresh
// database is dropped when the test that made it ends; a reopened store is only closed when
// its test (maybe a subtest of that one) ends, so the next Reopen still finds the data.
func openContract(t *testing.T, url string, o storetest.Options, fresh bool) *Store {
	t.Helper()
	ctx := testContext(t)
	cfg := Config{URL: url, Keys: o.Keys, Clock: o.Clock, OpenTasksPerTenant: o.OpenTasksPerTenant, TotalCap: o.TotalCap}
	if cfg.Keys == nil {
		cfg.Keys = testfactory.Keys()
	}
	if !fresh {
		s, err := Open(ctx, cfg)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = s.Close() })
		return s
	}
	s := openDropped(t, ctx, cfg)
	mustUp(t, ctx, s.db)
	t.Cleanup(func() {
		// The store may be closed by a Reopen by now: drop with a connection of its own.
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		if conn, err := Connect(ctx, url); err == nil {
			_ = conn.DB.Drop(ctx)
			_ = conn.Close(ctx)
		}
	})
	return s
}

func contractStore(t *testing.T, st store.Store) *Store {
	t.Helper()
	s, ok := st.(*Store)
	if !ok {
		t.Fatalf("the document-store harness got a %T, not a *docstore.Store", st)
	}
	return s
}

// tamperings are the Tamperings the aggregate can take as one field update (arg: the task's id).
var tamperings = map[storetest.Tampering]bson.D{
	storetest.CorruptInstructions: {{Key: "instructions_enc", Value: "v1:test:AAAA"}},
	storetest.CorruptDataKey:      {{Key: "task_data_enc", Value: "v1:nokey:AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"}},
	storetest.CorruptStatus:       {{Key: "status", Value: "Bogus"}},
	storetest.CorruptActions:      {{Key: "actions_json", Value: "not json"}},
}

// tamper changes the task aggregate behind the store's back, the states the audit and purge
// cases set (tamperOps), and invitations, deliveries and guest sessions (tamperGuests). A
// Tampering of a copy the document store does not keep (the candidates' status) makes its case
// not applicable.
func tamper(t *testing.T, s *Store, what storetest.Tampering, args ...any) error {
	t.Helper()
	ctx := testContext(t)
	set, ok := tamperings[what]
	switch {
	case ok:
		return updateTask(ctx, t, s, args[0], set)
	case what == storetest.MoveInstructions:
		var from taskDoc
		if err := s.tasks().FindOne(ctx, bson.D{{Key: "_id", Value: args[0]}}).Decode(&from); err != nil {
			t.Fatalf("tamper %s: %v", what, err)
		}
		return updateTask(ctx, t, s, args[1], bson.D{{Key: "instructions_enc", Value: from.InstructionsEnc}})
	case what == storetest.MoveRefreshToken:
		return moveRefreshToken(t, s, args[0], args[1])
	case what == storetest.CorruptCandidateStatus:
		return errors.New("the document store keeps no status copy on its candidates (known difference)")
	case what == storetest.CounterOnStripeZero:
		return errors.New("the document store counts one place per open task and never had " +
			"migration 00008's single-stripe count (known difference)")
	}
	if ok, err := tamperOps(t, s, what, args...); ok {
		return err
	}
	return tamperGuests(t, s, what, args...)
}

func updateTask(ctx context.Context, t *testing.T, s *Store, id any, set bson.D) error {
	t.Helper()
	r, err := s.tasks().UpdateOne(ctx, bson.D{{Key: "_id", Value: id}}, bson.D{{Key: "$set", Value: set}})
	if err != nil {
		t.Fatalf("tamper task %v: %v", id, err)
	}
	if r.MatchedCount != 1 {
		t.Fatalf("tamper task %v: matched %d", id, r.MatchedCount)
	}
	return nil
}

// counterStripes reads the tenant's open-task counter as stored: one place per open task, in
// stripe order.
func counterStripes(t *testing.T, s *Store, tenant string) []int {
	t.Helper()
	var places []placeDoc
	opts := options.Find().SetSort(bson.D{{Key: "stripe", Value: 1}})
	if err := s.findAll(testContext(t), counterCollection, bson.D{{Key: "tenant_id", Value: tenant}}, opts, &places); err != nil {
		t.Fatalf("read counter: %v", err)
	}
	out := make([]int, len(places))
	for i, p := range places {
		out[i] = p.OpenTasks
	}
	return out
}
