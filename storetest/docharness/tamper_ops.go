package docharness

import (
	"errors"
	"slices"
	"testing"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"

	"usertasks/docstore"
	"usertasks/models"
	"usertasks/storekit"
	"usertasks/storetest"
)

// The Tamperings of the Operations group's cases (audit, purge), each the SQL harness's
// statement (storetest/sqlharness) on the documents.

// setWhere is one tampering: a $set of the documents of coll that match a filter built from
// the tampering's arguments.
type setWhere struct {
	coll   string
	filter func(args []any) bson.D
	set    func(args []any) bson.D
}

func byTask(field string) func(args []any) bson.D {
	return func(args []any) bson.D { return bson.D{{Key: field, Value: args[len(args)-1]}} }
}

func fixed(set bson.D) func([]any) bson.D { return func([]any) bson.D { return set } }

// opsTamperings are the tamperings that are one $set per document, by their SQL statement.
var opsTamperings = map[storetest.Tampering][]setWhere{
	storetest.AssignToGuest: {{docstore.Aggregate, byTask("_id"), func(args []any) bson.D {
		return bson.D{{Key: "status", Value: string(models.StatusAssigned)}, {Key: "assignee_provider", Value: models.GuestProvider},
			{Key: "assignee_type", Value: "user"}, {Key: "assignee_id", Value: args[0]}}
	}}},
	storetest.DeliverResumptions: {{resumptions, byTask("task_id"), fixed(bson.D{{Key: "state", Value: string(models.DeliveryDelivered)}})}},

	breakInv(storekit.InvEventRevision):   {{events, seqOfTask(1), fixed(bson.D{{Key: "revision", Value: 9}})}},
	breakInv(storekit.InvCandidateStatus): nil, // no status copy (known difference): see tamperOps
	breakInv(storekit.InvSearchText):      {{docstore.Aggregate, byTask("_id"), fixed(bson.D{{Key: "search_text", Value: "something else"}})}},
	breakInv(storekit.InvOverdueFlag):     {{docstore.Aggregate, byTask("_id"), fixed(bson.D{{Key: "is_overdue", Value: true}})}},
	breakInv(storekit.InvOperationState): {{operations, func(args []any) bson.D {
		return bson.D{{Key: "task_id", Value: args[0]}, {Key: "kind", Value: string(models.OpComplete)}}
	}, fixed(bson.D{{Key: "state", Value: string(models.OperationAccepted)}})}},
	breakInv(storekit.InvResumption):  {{resumptions, byTask("task_id"), fixed(bson.D{{Key: "state", Value: string(models.DeliverySettled)}})}},
	breakInv(storekit.InvChildTenant): {{events, seqOfTask(2), fixed(bson.D{{Key: "tenant_id", Value: "t9"}})}},
	breakInv(storekit.InvInvitationGuest): {
		{invitations, byTask("task_id"), fixed(bson.D{{Key: "status", Value: string(models.InvitationConsumed)}})},
		{deliveries, byTask("task_id"), fixed(bson.D{{Key: "state", Value: string(models.DeliveryDelivered)}})},
	},
	breakInv(storekit.InvInvitationGroup): {{invitations, func(args []any) bson.D {
		return bson.D{{Key: "task_id", Value: args[0]}, {Key: "status", Value: string(models.InvitationRevoked)}}
	}, fixed(bson.D{{Key: "status", Value: string(models.InvitationVerified)}})}},
	breakInv(storekit.InvGuestSession):  {{guestSessions, byTask("task_id"), fixed(bson.D{{Key: "participant_id", Value: "invitation:other"}})}},
	breakInv(storekit.InvDeliveryState): {{invitations, byTask("task_id"), fixed(bson.D{{Key: "status", Value: string(models.InvitationRevoked)}})}},
	breakInv(storekit.InvTokenHash):     {{invitations, byTask("task_id"), fixed(bson.D{{Key: "token_hash", Value: "ABC"}})}},
}

func breakInv(inv string) storetest.Tampering { return storetest.BreakInvariant(inv) }

func seqOfTask(seq int) func(args []any) bson.D {
	return func(args []any) bson.D { return bson.D{{Key: "task_id", Value: args[0]}, {Key: "seq", Value: seq}} }
}

// tamperOps applies what, reporting false when it is none of the Operations group's (the
// invitations' own states are tamperGuests').
func tamperOps(t *testing.T, db *mongo.Database, what storetest.Tampering, args ...any) (bool, error) {
	t.Helper()
	if what == breakInv(storekit.InvCandidateStatus) {
		return true, errors.New("the document store keeps no status copy on its candidates (known difference)")
	}
	if sets, ok := opsTamperings[what]; ok {
		for _, w := range sets {
			r, err := db.Collection(w.coll).UpdateMany(ctx(t), w.filter(args), bson.D{{Key: "$set", Value: w.set(args)}})
			if err != nil || r.MatchedCount == 0 {
				t.Fatalf("tamper %s on %s: matched %v, %v", what, w.coll, r, err)
			}
		}
		return true, nil
	}
	completed := string(models.OperationCompleted)
	switch what {
	case storetest.CompleteOperations:
		// The open ones are in the aggregate, the finished ones (if any) in their collection.
		if _, err := db.Collection(operations).UpdateMany(ctx(t), bson.D{{Key: "task_id", Value: args[0]}},
			bson.D{{Key: "$set", Value: bson.D{{Key: "state", Value: completed}}}}); err != nil {
			t.Fatalf("tamper %s: %v", what, err)
		}
		ops := readTask(t, db, args[0]).Operations
		for i := range ops {
			ops[i] = setField(ops[i], "state", completed)
		}
		return true, setTask(t, db, args[0], bson.D{{Key: "operations", Value: ops}})
	case breakInv(storekit.InvResumeStimulus):
		// The accepted operation is the aggregate's until the finalization: its payload dropped.
		ops := readTask(t, db, args[0]).Operations
		for i := range ops {
			ops[i] = setField(ops[i], "payload_enc", nil)
		}
		return true, setTask(t, db, args[0], bson.D{{Key: "operations", Value: ops}})
	case storetest.ForceCompleted:
		d := readTask(t, db, args[0])
		return true, setTask(t, db, args[0], bson.D{{Key: "status", Value: string(models.StatusCompleted)}, {Key: "completed_at", Value: d.UpdatedAt}})
	case breakInv(storekit.InvEventSequence):
		return true, setTask(t, db, args[0], bson.D{{Key: "last_event_seq", Value: readTask(t, db, args[0]).LastEventSeq + 1}})
	case breakInv(storekit.InvStatusEvent):
		f := bson.D{{Key: "task_id", Value: args[0]}, {Key: "event_type", Value: string(models.EventClaimed)}}
		_, err := db.Collection(events).UpdateMany(ctx(t), f,
			bson.D{{Key: "$set", Value: bson.D{{Key: "event_type", Value: string(models.EventReleased)}}}})
		return true, err
	case breakInv(storekit.InvStatusFields):
		return true, setTask(t, db, args[0], bson.D{{Key: "completed_at", Value: readTask(t, db, args[0]).UpdatedAt}})
	case breakInv(storekit.InvCandidateSummary):
		return true, setTask(t, db, args[0], bson.D{{Key: "candidate_users", Value: readTask(t, db, args[0]).CandidateUsers + 1}})
	case breakInv(storekit.InvTagRows):
		tags := slices.DeleteFunc(readTask(t, db, args[0]).TagKeys, func(tag bson.D) bool {
			return slices.ContainsFunc(tag, func(e bson.E) bool { return e.Key == "tag" && e.Value == "urgent" })
		})
		return true, setTask(t, db, args[0], bson.D{{Key: "tag_keys", Value: tags}})
	case breakInv(storekit.InvCiphertext):
		return true, setTask(t, db, args[0], bson.D{{Key: "task_data_enc", Value: readTask(t, db, args[0]).InstructionsEnc}})
	case breakInv(storekit.InvTenantCounter):
		// A place no task holds: the counter then counts one task too many.
		place := bson.D{{Key: "tenant_id", Value: readTask(t, db, args[0]).TenantID}, {Key: "stripe", Value: 1 << 30},
			{Key: "open_tasks", Value: 1}, {Key: "task_id", Value: models.NewID()}, {Key: "updated_at", Value: time.Time{}}}
		_, err := db.Collection(counters).InsertOne(ctx(t), place)
		return true, err
	}
	return false, nil
}

// setField returns d with key set to v (appended when d has no such key).
func setField(d bson.D, key string, v any) bson.D {
	for i := range d {
		if d[i].Key == key {
			d[i].Value = v
			return d
		}
	}
	return append(d, bson.E{Key: key, Value: v})
}
