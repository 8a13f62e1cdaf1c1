package docharness

import (
	"errors"
	"testing"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"

	"usertasks/docstore"
	"usertasks/models"
	"usertasks/store"
	"usertasks/storekit"
	"usertasks/storetest"
)

// The collections the tamperings change, under their logical tables' names.
const (
	events        = "user_task_events"
	operations    = "user_task_operations"
	resumptions   = "user_task_resumptions"
	invitations   = "user_task_invitations"
	deliveries    = "user_task_deliveries"
	guestSessions = "user_task_guest_sessions"
	webSessions   = "user_task_web_sessions"
	counters      = "user_task_tenant_counters"
)

// taskSets are the Tamperings the aggregate can take as one field update (arg: the task's id).
var taskSets = map[storetest.Tampering]bson.D{
	storetest.CorruptInstructions: {{Key: "instructions_enc", Value: "v1:test:AAAA"}},
	storetest.CorruptDataKey:      {{Key: "task_data_enc", Value: "v1:nokey:AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"}},
	storetest.CorruptStatus:       {{Key: "status", Value: "Bogus"}},
	storetest.CorruptActions:      {{Key: "actions_json", Value: "not json"}},
}

// tamper changes the stored documents behind the store's back: the task aggregate, the states
// the audit and purge cases set (tamperOps), and invitations, deliveries and guest sessions
// (tamperGuests). A Tampering of a copy the document store does not keep (the candidates'
// status) makes its case not applicable.
func tamper(t *testing.T, s store.Store, what storetest.Tampering, args ...any) error {
	t.Helper()
	db := database(t, s)
	set, ok := taskSets[what]
	switch {
	case ok:
		return setTask(t, db, args[0], set)
	case what == storetest.MoveInstructions:
		from := readTask(t, db, args[0])
		return setTask(t, db, args[1], bson.D{{Key: "instructions_enc", Value: from.InstructionsEnc}})
	case what == storetest.MoveRefreshToken:
		return moveRefreshToken(t, db, args[0], args[1])
	case what == storetest.CorruptCandidateStatus:
		return errors.New("the document store keeps no status copy on its candidates (known difference)")
	case what == storetest.CounterOnStripeZero:
		return errors.New("the document store counts one place per open task and never had " +
			"migration 00008's single-stripe count (known difference)")
	}
	if ok, err := tamperOps(t, db, what, args...); ok {
		return err
	}
	if ok := tamperAttachments(t, db, what, args...); ok {
		return nil
	}
	return tamperGuests(t, db, what, args...)
}

// aggregate is the task aggregate as the tamperings read it: the task's row (inline, as the
// store keeps it) and the embedded arrays they change.
type aggregate struct {
	storekit.TaskRow `bson:",inline"`
	TagKeys          []bson.D `bson:"tag_keys"`
	Operations       []bson.D `bson:"operations"`
}

func readTask(t *testing.T, db *mongo.Database, id any) aggregate {
	t.Helper()
	var d aggregate
	if err := db.Collection(docstore.Aggregate).FindOne(ctx(t), bson.D{{Key: "_id", Value: id}}).Decode(&d); err != nil {
		t.Fatalf("tamper task %v: %v", id, err)
	}
	return d
}

// setTask changes fields of the aggregate as stored (its version stays: nothing the store
// wrote).
func setTask(t *testing.T, db *mongo.Database, id any, set bson.D) error {
	t.Helper()
	r, err := db.Collection(docstore.Aggregate).UpdateOne(ctx(t), bson.D{{Key: "_id", Value: id}}, bson.D{{Key: "$set", Value: set}})
	if err != nil {
		t.Fatalf("tamper task %v: %v", id, err)
	}
	if r.MatchedCount != 1 {
		t.Fatalf("tamper task %v: matched %d", id, r.MatchedCount)
	}
	return nil
}

// moveRefreshToken copies one web session's sealed refresh token, as stored, over another's.
func moveRefreshToken(t *testing.T, db *mongo.Database, from, to any) error {
	t.Helper()
	var d storekit.WebSessionRow
	if err := db.Collection(webSessions).FindOne(ctx(t), bson.D{{Key: "_id", Value: from}}).Decode(&d); err != nil {
		t.Fatalf("tamper %s: %v", storetest.MoveRefreshToken, err)
	}
	r, err := db.Collection(webSessions).UpdateOne(ctx(t), bson.D{{Key: "_id", Value: to}},
		bson.D{{Key: "$set", Value: bson.D{{Key: storekit.ColRefreshToken, Value: d.RefreshTokenEnc}}}})
	if err != nil || r.MatchedCount != 1 {
		t.Fatalf("tamper %s: matched %v, %v", storetest.MoveRefreshToken, r, err)
	}
	return nil
}

// tamperGuests applies the Tamperings of invitations, deliveries and guest sessions, the SQL
// harness's statements as field updates of their collections; any other is not built on the
// document store yet.
func tamperGuests(t *testing.T, db *mongo.Database, what storetest.Tampering, args ...any) error {
	t.Helper()
	byInvitation := func(id any) bson.D { return bson.D{{Key: "_id", Value: id}} }
	// atUpdate sets the invitation's status and stamps fields with its updated_at.
	atUpdate := func(id any, status string, stamps ...string) (bson.D, bson.D) {
		var d storekit.InvitationRow
		if err := db.Collection(invitations).FindOne(ctx(t), byInvitation(id)).Decode(&d); err != nil {
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
		coll, filter, set, wantOneMatch = invitations, bson.D{{Key: "task_id", Value: args[1]}}, bson.D{{Key: "sibling_group_id", Value: args[0]}}, false
	case storetest.ConsumeInvitationRecord:
		coll = invitations
		filter, set = atUpdate(args[0], "consumed", "verified_at", "consumed_at")
	case storetest.RevokeInvitationRecord:
		coll = invitations
		filter, set = atUpdate(args[0], "revoked", "revoked_at")
	case storetest.SetInvitationStatus:
		coll, filter, set = invitations, byInvitation(args[1]), bson.D{{Key: "status", Value: args[0]}}
	case storetest.LeaseDelivery:
		coll, filter = deliveries, bson.D{{Key: "invitation_id", Value: args[1]}}
		set = bson.D{{Key: "lease_owner", Value: "node"}, {Key: "lease_token", Value: "tok"}, {Key: "lease_expires_at", Value: args[0]}}
	case storetest.DeliverDelivery:
		coll, filter = deliveries, bson.D{{Key: "invitation_id", Value: args[0]}}
		set = bson.D{{Key: "state", Value: string(models.DeliveryDelivered)}}
	case storetest.InsertGuestSession:
		str := func(i int) string { return args[i].(string) }
		// As the store keeps times: UTC, in the milliseconds BSON dates hold.
		at := func(i int) time.Time { return args[i].(time.Time).UTC().Truncate(time.Millisecond) }
		insert = storekit.GuestSessionRow{ID: str(0), TenantID: str(1), TaskID: str(2), InvitationID: str(3), TokenHash: str(4),
			ParticipantProvider: str(5), ParticipantID: str(6), Capabilities: str(7), IssuedAt: at(8), ExpiresAt: at(9)}
	default:
		return errors.New("not built on the document store yet")
	}
	if insert != nil {
		if _, err := db.Collection(guestSessions).InsertOne(ctx(t), insert); err != nil {
			t.Fatalf("tamper %s: %v", what, err)
		}
		return nil
	}
	r, err := db.Collection(coll).UpdateMany(ctx(t), filter, bson.D{{Key: "$set", Value: set}})
	if err != nil || (wantOneMatch && r.MatchedCount != 1) {
		t.Fatalf("tamper %s: matched %v, %v", what, r, err)
	}
	return nil
}
