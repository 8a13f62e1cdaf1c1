package docstore_test

import (
	"context"
	"errors"
	"slices"
	"testing"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"
	"go.mongodb.org/mongo-driver/v2/mongo/options"

	"usertasks/docstore"
	"usertasks/docstore/docstoretest"
	"usertasks/migrations"
	"usertasks/migrations/logical"
)

func testContext(t *testing.T) context.Context {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	t.Cleanup(cancel)
	return ctx
}

// emptyDB connects to a fresh, empty database of its own, dropped when the test ends: the
// migrations start from nothing (a store opens on a migrated one: testfactory).
func emptyDB(t *testing.T) *mongo.Database {
	t.Helper()
	conn, err := docstore.Connect(testContext(t), docstoretest.DatabaseURL(t))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = conn.Close(context.Background()) })
	return conn.DB
}

func mustUp(t *testing.T, ctx context.Context, db *mongo.Database) []docstore.Change {
	t.Helper()
	changes, err := docstore.Up(ctx, db)
	if err != nil {
		t.Fatalf("Up: %v", err)
	}
	return changes
}

// requireLayout reads every collection's indexes back with listIndexes and compares them with
// the layout: same names, keys in order, uniqueness, nothing more.
func requireLayout(t *testing.T, ctx context.Context, db *mongo.Database) {
	t.Helper()
	names, err := db.ListCollectionNames(ctx, bson.D{})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range mustLayout(t) {
		if !slices.Contains(names, c.Name) {
			t.Errorf("collection %s is missing", c.Name)
			continue
		}
		got, err := docstore.ListIndexes(ctx, db.Collection(c.Name))
		if err != nil {
			t.Fatal(err)
		}
		sortIndexes(got)
		want := slices.Clone(c.Indexes)
		sortIndexes(want)
		if !slices.EqualFunc(got, want, docstore.SameIndex) {
			t.Errorf("%s indexes:\n got %+v\nwant %+v", c.Name, got, want)
		}
	}
}

func sortIndexes(ix []docstore.Index) {
	slices.SortFunc(ix, func(a, b docstore.Index) int {
		if a.Name < b.Name {
			return -1
		}
		if a.Name > b.Name {
			return 1
		}
		return 0
	})
}

func TestUp(t *testing.T) {
	t.Run("OK", func(t *testing.T) {
		ctx, db := testContext(t), emptyDB(t)
		if _, _, err := docstore.Check(ctx, db); !errors.Is(err, migrations.ErrPending) {
			t.Fatalf("Check on an empty database = %v, want ErrPending", err)
		}
		changes := mustUp(t, ctx, db)
		if len(changes) == 0 {
			t.Fatal("Up on an empty database changed nothing")
		}
		requireLayout(t, ctx, db)
		current, latest, err := docstore.Check(ctx, db)
		if err != nil || current != logical.Version || latest != logical.Version {
			t.Fatalf("Check = %d, %d, %v; want %d, %d, nil", current, latest, err, logical.Version, logical.Version)
		}
		status, err := docstore.Status(ctx, db)
		if err != nil {
			t.Fatal(err)
		}
		for _, s := range status {
			if !s.Exists || len(s.Missing) > 0 || len(s.Extra) > 0 {
				t.Errorf("Status %+v after Up", s)
			}
		}
	})

	t.Run("SecondRunIsANoOp", func(t *testing.T) {
		ctx, db := testContext(t), emptyDB(t)
		mustUp(t, ctx, db)
		if changes := mustUp(t, ctx, db); len(changes) != 0 {
			t.Fatalf("the second Up changed %v", changes)
		}
		requireLayout(t, ctx, db)
	})

	t.Run("RepairsDrift", func(t *testing.T) {
		ctx, db := testContext(t), emptyDB(t)
		mustUp(t, ctx, db)
		tasks := db.Collection(docstore.Aggregate)
		if err := tasks.Indexes().DropOne(ctx, "ux_tasks_bookmark"); err != nil {
			t.Fatal(err)
		}
		stray := mongo.IndexModel{Keys: bson.D{{Key: "title", Value: 1}}, Options: options.Index().SetName("ix_stray")}
		if _, err := tasks.Indexes().CreateOne(ctx, stray); err != nil {
			t.Fatal(err)
		}
		status, err := docstore.Status(ctx, db)
		if err != nil {
			t.Fatal(err)
		}
		agg := status[slices.IndexFunc(status, func(s docstore.CollectionStatus) bool { return s.Name == docstore.Aggregate })]
		if !slices.Equal(agg.Missing, []string{"ux_tasks_bookmark"}) || !slices.Equal(agg.Extra, []string{"ix_stray"}) {
			t.Fatalf("Status = %+v, want ux_tasks_bookmark missing and ix_stray extra", agg)
		}
		changes := mustUp(t, ctx, db)
		want := []docstore.Change{{Collection: docstore.Aggregate, Index: "ix_stray", Dropped: true}, {Collection: docstore.Aggregate, Index: "ux_tasks_bookmark"}}
		if !slices.Equal(changes, want) {
			t.Fatalf("Up = %v, want %v", changes, want)
		}
		requireLayout(t, ctx, db)
	})

	t.Run("ErrUnknownSchema", func(t *testing.T) {
		ctx, db := testContext(t), emptyDB(t)
		_, err := db.Collection(docstore.VersionCollection).InsertOne(ctx, bson.D{{Key: "_id", Value: docstore.VersionID}, {Key: "version", Value: logical.Version + 1}})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := docstore.Up(ctx, db); !errors.Is(err, migrations.ErrUnknownSchema) {
			t.Fatalf("Up on a newer schema = %v, want ErrUnknownSchema", err)
		}
		if _, _, err := docstore.Check(ctx, db); !errors.Is(err, migrations.ErrUnknownSchema) {
			t.Fatalf("Check on a newer schema = %v, want ErrUnknownSchema", err)
		}
		names, err := db.ListCollectionNames(ctx, bson.D{})
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(names, []string{docstore.VersionCollection}) {
			t.Fatalf("collections %v after a refused Up, want only %s", names, docstore.VersionCollection)
		}
		if v, err := docstore.Version(ctx, db); err != nil || v != logical.Version+1 {
			t.Fatalf("Version = %d, %v; the newer version must stay", v, err)
		}
	})

	t.Run("OlderVersionIsRaised", func(t *testing.T) {
		ctx, db := testContext(t), emptyDB(t)
		_, err := db.Collection(docstore.VersionCollection).InsertOne(ctx, bson.D{{Key: "_id", Value: docstore.VersionID}, {Key: "version", Value: int64(1)}})
		if err != nil {
			t.Fatal(err)
		}
		mustUp(t, ctx, db)
		if v, err := docstore.Version(ctx, db); err != nil || v != logical.Version {
			t.Fatalf("Version = %d, %v; want %d", v, err, logical.Version)
		}
	})
}
