package docstore

import (
	"strings"
	"testing"

	"go.mongodb.org/mongo-driver/v2/bson"

	"usertasks/migrations/logical"
	"usertasks/repository/storetest"
)

// The contract suite's storage hooks that read stored records (storetest.Harness.CountRecords
// and CountContaining), for the units that have their own collection: a logical field is the
// document's field of the same name, a single-column primary key is _id (as Layout maps them).

func countRecords(t *testing.T, st storetest.Tasks, unit string, where map[string]any) int {
	t.Helper()
	s := contractStore(t, st)
	if _, ok := embedded[unit]; ok {
		return countEmbedded(t, s, unit, where)
	}
	coll := hookCollection(t, unit)
	filter := bson.D{}
	for field, v := range where {
		filter = append(filter, bson.E{Key: hookField(unit, field), Value: v})
	}
	n, err := s.db.Collection(coll).CountDocuments(testContext(t), filter)
	if err != nil {
		t.Fatalf("count %s: %v", unit, err)
	}
	return int(n)
}

func countContaining(t *testing.T, st storetest.Tasks, unit, field, text string) int {
	t.Helper()
	s := contractStore(t, st)
	key := hookField(unit, field)
	var docs []bson.M
	if err := s.findAll(testContext(t), hookCollection(t, unit), bson.D{}, nil, &docs); err != nil {
		t.Fatalf("read %s: %v", unit, err)
	}
	n := 0
	for _, d := range docs {
		if v, ok := d[key].(string); ok && strings.Contains(v, text) {
			n++
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

// moveRefreshToken copies one web session's sealed refresh token, as stored, over another's.
func moveRefreshToken(t *testing.T, s *Store, from, to any) error {
	t.Helper()
	ctx := testContext(t)
	var d webSessionDoc
	if err := s.webSessions().FindOne(ctx, bson.D{{Key: "_id", Value: from}}).Decode(&d); err != nil {
		t.Fatalf("tamper %s: %v", storetest.MoveRefreshToken, err)
	}
	r, err := s.webSessions().UpdateOne(ctx, bson.D{{Key: "_id", Value: to}},
		bson.D{{Key: "$set", Value: bson.D{{Key: fieldRefreshToken, Value: d.RefreshTokenEnc}}}})
	if err != nil || r.MatchedCount != 1 {
		t.Fatalf("tamper %s: matched %v, %v", storetest.MoveRefreshToken, r, err)
	}
	return nil
}
