// Package docharness runs the store contract suite (storetest) on the document store: it opens
// *docstore.Store on a fresh database of docstoretest's server (testfactory) and implements the
// suite's storage hooks over the documents as stored, raw BSON read and written through
// docstore.Store.Database: the SQL harness's statements (storetest/sqlharness) as field updates.
// The document store's own tests take the same tamperings and counts from here.
package docharness

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"
	"go.mongodb.org/mongo-driver/v2/mongo/options"

	"usertasks/docstore"
	"usertasks/migrations/logical"
	"usertasks/store"
	"usertasks/storetest"
	"usertasks/testfactory"
)

// Harness opens each case's store on a fresh, migrated database (testfactory.Database). The
// store has the task aggregate (store.Store) and every group the suite asserts; the cases that
// need an option or a storage hook the document store cannot honour are reported "not
// applicable on MongoDB: <case> — <reason>".
func Harness() storetest.Harness {
	return storetest.Harness{
		Name: "MongoDB",
		Open: func(t *testing.T, o storetest.Options) store.Store {
			return testfactory.OpenStore(t, testfactory.Mongo, o.StoreOpts())
		},
		Reopen: func(t *testing.T, s store.Store, o storetest.Options) store.Store {
			u := testfactory.URL(t, s)
			// A store reopened inside a subtest was closed when that subtest ended.
			if err := s.Close(); err != nil && !errors.Is(err, mongo.ErrClientDisconnected) {
				t.Fatalf("close: %v", err)
			}
			return testfactory.Open(t, u, o.StoreOpts())
		},
		Unsupported: unsupported,
		Differs: map[string]string{
			// docs/document-store.md, "Contract suite".
			"RoundTrip/OK": "times are BSON dates, which hold milliseconds (the SQL store keeps microseconds)",
		},
		Tamper:          tamper,
		CountRecords:    countRecords,
		CountContaining: countContaining,
		CounterStripes:  counterStripes,
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

// database is the document store's database behind s.
func database(t *testing.T, s store.Store) *mongo.Database {
	t.Helper()
	ds, ok := s.(*docstore.Store)
	if !ok {
		t.Fatalf("the document-store harness got a %T, not a *docstore.Store", s)
	}
	return ds.Database()
}

func ctx(t *testing.T) context.Context {
	c, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	t.Cleanup(cancel)
	return c
}

// The storage hooks that read stored records (CountRecords and CountContaining), for the units
// that have their own collection: a logical field is the document's field of the same name, a
// single-column primary key is _id (as docstore.Layout maps them).

// embedded are the logical units stored inside the task aggregate, and the array holding them.
var embedded = map[string]string{
	"user_task_tags":       "tag_keys",
	"user_task_candidates": "candidates",
	"user_task_exclusions": "exclusions",
}

func countRecords(t *testing.T, s store.Store, unit string, where map[string]any) int {
	t.Helper()
	db := database(t, s)
	if _, ok := embedded[unit]; ok {
		return countEmbedded(t, db, unit, where)
	}
	filter := bson.D{}
	for field, v := range where {
		filter = append(filter, bson.E{Key: hookField(unit, field), Value: v})
	}
	n, err := db.Collection(hookCollection(t, unit)).CountDocuments(ctx(t), filter)
	if err != nil {
		t.Fatalf("count %s: %v", unit, err)
	}
	return int(n)
}

func countContaining(t *testing.T, s store.Store, unit, field, text string) int {
	t.Helper()
	key := hookField(unit, field)
	var docs []bson.M
	findAll(t, database(t, s).Collection(hookCollection(t, unit)), bson.D{}, nil, &docs)
	n := 0
	for _, d := range docs {
		if v, ok := d[key].(string); ok && strings.Contains(v, text) {
			n++
		}
	}
	return n
}

// countEmbedded counts the rows of an embedded unit matching where (by task_id or tenant_id)
// in the aggregates that hold them.
func countEmbedded(t *testing.T, db *mongo.Database, unit string, where map[string]any) int {
	t.Helper()
	f := bson.D{}
	for field, v := range where {
		switch field {
		case "task_id":
			f = append(f, bson.E{Key: "_id", Value: v})
		case "tenant_id":
			f = append(f, bson.E{Key: "tenant_id", Value: v})
		default:
			t.Fatalf("the storage hooks count %s by task or tenant only, not by %s", unit, field)
		}
	}
	var docs []bson.Raw
	findAll(t, db.Collection(docstore.Aggregate), f, nil, &docs)
	n := 0
	for _, d := range docs {
		if rows, ok := d.Lookup(embedded[unit]).ArrayOK(); ok {
			values, err := rows.Values()
			if err != nil {
				t.Fatalf("count %s: %v", unit, err)
			}
			n += len(values)
		}
	}
	return n
}

// hookCollection is the collection of a logical unit; an embedded unit has none.
func hookCollection(t *testing.T, unit string) string {
	t.Helper()
	if _, ok := embedded[unit]; ok {
		t.Fatalf("the storage hooks do not count the embedded unit %s yet", unit)
	}
	return unit
}

// hookField maps a logical field of unit to its document field.
func hookField(unit, field string) string {
	for _, tb := range logical.Schema() {
		if tb.Name == unit && len(tb.PrimaryKey) == 1 && tb.PrimaryKey[0] == field {
			return "_id"
		}
	}
	return field
}

// counterStripes reads the tenant's open-task counter as stored: one place per open task, in
// stripe order.
func counterStripes(t *testing.T, s store.Store, tenant string) []int {
	t.Helper()
	var places []struct {
		OpenTasks int `bson:"open_tasks"`
	}
	opts := options.Find().SetSort(bson.D{{Key: "stripe", Value: 1}})
	findAll(t, database(t, s).Collection(counters), bson.D{{Key: "tenant_id", Value: tenant}}, opts, &places)
	out := make([]int, len(places))
	for i, p := range places {
		out[i] = p.OpenTasks
	}
	return out
}

func findAll(t *testing.T, coll *mongo.Collection, filter bson.D, opts *options.FindOptionsBuilder, out any) {
	t.Helper()
	if opts == nil {
		opts = options.Find()
	}
	cur, err := coll.Find(ctx(t), filter, opts)
	if err != nil {
		t.Fatalf("read %s: %v", coll.Name(), err)
	}
	if err := cur.All(ctx(t), out); err != nil {
		t.Fatalf("read %s: %v", coll.Name(), err)
	}
}
