package handlers_test

import (
	"context"
	"testing"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"

	"usertasks/docstore"
)

// documents calls fn with every document of every collection of the fixture's document store
// and returns the collections' names.
func (f *attackFixture) documents(t *testing.T, fn func(collection string, doc bson.Raw)) []string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	db := f.docDB(t)
	names, err := db.ListCollectionNames(ctx, bson.D{})
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range names {
		cur, err := db.Collection(name).Find(ctx, bson.D{})
		if err != nil {
			t.Fatalf("read %s: %v", name, err)
		}
		for cur.Next(ctx) {
			fn(name, cur.Current)
		}
		if err := cur.Err(); err != nil {
			t.Fatalf("read %s: %v", name, err)
		}
		_ = cur.Close(ctx)
	}
	return names
}

// countDocuments counts the documents of collection matching filter in the fixture's
// document store.
func (f *attackFixture) countDocuments(t *testing.T, collection string, filter bson.M) int {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	n, err := f.docDB(t).Collection(collection).CountDocuments(ctx, filter)
	if err != nil {
		t.Fatalf("count %s: %v", collection, err)
	}
	return int(n)
}

// docDB is the fixture's document store's database: the tests read what the store wrote, not
// through it (as sqlStore's tables on SQL).
func (f *attackFixture) docDB(t *testing.T) *mongo.Database {
	t.Helper()
	s, ok := f.store.(*docstore.Store)
	if !ok {
		t.Fatalf("the fixture's store is a %T, not the document store", f.store)
	}
	return s.Database()
}
