package docstore

import (
	"errors"
	"strings"
	"testing"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"

	"usertasks/migrations/logical"
	"usertasks/models"
	"usertasks/store"
	"usertasks/storetest"
)

// The contract suite's storage hooks that read stored records (storetest.Harness.CountRecords
// and CountContaining), for the units that have their own collection: a logical field is the
// document's field of the same name, a single-column primary key is _id (as Layout maps them).

func countRecords(t *testing.T, st store.Store, unit string, where map[string]any) int {
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

func countContaining(t *testing.T, st store.Store, unit, field, text string) int {
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

// tamperGuests applies the Tamperings of invitations, deliveries and guest sessions, the SQL
// harness's statements as field updates of their collections; any other is not built on the
// document store yet.
func tamperGuests(t *testing.T, s *Store, what storetest.Tampering, args ...any) error {
	t.Helper()
	ctx := testContext(t)
	byInvitation := func(id any) bson.D { return bson.D{{Key: "_id", Value: id}} }
	// atUpdate sets the invitation's status and stamps fields with its updated_at.
	atUpdate := func(id any, status string, stamps ...string) (bson.D, bson.D) {
		var d invitationDoc
		if err := s.db.Collection(invitationCollection).FindOne(ctx, byInvitation(id)).Decode(&d); err != nil {
			t.Fatalf("tamper %s: %v", what, err)
		}
		set := bson.D{{Key: "status", Value: status}}
		for _, f := range stamps {
			set = append(set, bson.E{Key: f, Value: d.UpdatedAt})
		}
		return byInvitation(id), set
	}
	var (
		coll         string
		filter, set  bson.D
		insert       any
		wantOneMatch = true
	)
	switch what {
	case storetest.SetSiblingGroup:
		coll, filter, set, wantOneMatch = invitationCollection, bson.D{{Key: "task_id", Value: args[1]}}, bson.D{{Key: "sibling_group_id", Value: args[0]}}, false
	case storetest.ConsumeInvitationRecord:
		coll = invitationCollection
		filter, set = atUpdate(args[0], "consumed", "verified_at", "consumed_at")
	case storetest.RevokeInvitationRecord:
		coll = invitationCollection
		filter, set = atUpdate(args[0], "revoked", "revoked_at")
	case storetest.SetInvitationStatus:
		coll, filter, set = invitationCollection, byInvitation(args[1]), bson.D{{Key: "status", Value: args[0]}}
	case storetest.LeaseDelivery:
		coll, filter = deliveryCollection, bson.D{{Key: "invitation_id", Value: args[1]}}
		set = bson.D{{Key: "lease_owner", Value: "node"}, {Key: "lease_token", Value: "tok"}, {Key: "lease_expires_at", Value: args[0]}}
	case storetest.DeliverDelivery:
		coll, filter = deliveryCollection, bson.D{{Key: "invitation_id", Value: args[0]}}
		set = bson.D{{Key: "state", Value: string(models.DeliveryDelivered)}}
	case storetest.InsertGuestSession:
		str := func(i int) string { return args[i].(string) }
		at := func(i int) time.Time { return utc(args[i].(time.Time)) }
		insert = guestSessionDoc{ID: str(0), TenantID: str(1), TaskID: str(2), InvitationID: str(3), TokenHash: str(4),
			ParticipantProvider: str(5), ParticipantID: str(6), Capabilities: str(7), IssuedAt: at(8), ExpiresAt: at(9)}
	default:
		return errors.New("not built on the document store yet")
	}
	if insert != nil {
		if _, err := s.db.Collection(guestSessionCollection).InsertOne(ctx, insert); err != nil {
			t.Fatalf("tamper %s: %v", what, err)
		}
		return nil
	}
	r, err := s.db.Collection(coll).UpdateMany(ctx, filter, bson.D{{Key: "$set", Value: set}})
	if err != nil || (wantOneMatch && r.MatchedCount != 1) {
		t.Fatalf("tamper %s: matched %v, %v", what, r, err)
	}
	return nil
}
