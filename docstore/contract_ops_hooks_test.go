package docstore

import (
	"context"
	"errors"
	"slices"
	"testing"

	"go.mongodb.org/mongo-driver/v2/bson"

	"usertasks/models"
	"usertasks/storekit"
	"usertasks/storetest"
)

// The contract suite's storage hooks for the Operations group's cases (audit, purge): the
// Tamperings they set, each the SQL harness's statement (storetest/sqlharness) on
// the documents, and the counts of the units embedded in the aggregate.

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
	storetest.AssignToGuest: {{Aggregate, byTask("_id"), func(args []any) bson.D {
		return bson.D{{Key: "status", Value: string(models.StatusAssigned)}, {Key: "assignee_provider", Value: models.GuestProvider},
			{Key: "assignee_type", Value: "user"}, {Key: "assignee_id", Value: args[0]}}
	}}},
	storetest.DeliverResumptions: {{resumptionCollection, byTask("task_id"), fixed(bson.D{{Key: "state", Value: string(models.DeliveryDelivered)}})}},

	breakInv(storekit.InvEventRevision):   {{eventCollection, seqOfTask(1), fixed(bson.D{{Key: "revision", Value: 9}})}},
	breakInv(storekit.InvCandidateStatus): nil, // no status copy (known difference): see tamperOps
	breakInv(storekit.InvSearchText):      {{Aggregate, byTask("_id"), fixed(bson.D{{Key: "search_text", Value: "something else"}})}},
	breakInv(storekit.InvOverdueFlag):     {{Aggregate, byTask("_id"), fixed(bson.D{{Key: "is_overdue", Value: true}})}},
	breakInv(storekit.InvOperationState): {{operationCollection, func(args []any) bson.D {
		return bson.D{{Key: "task_id", Value: args[0]}, {Key: "kind", Value: string(models.OpComplete)}}
	}, fixed(bson.D{{Key: "state", Value: string(models.OperationAccepted)}})}},
	breakInv(storekit.InvResumption):  {{resumptionCollection, byTask("task_id"), fixed(bson.D{{Key: "state", Value: string(models.DeliverySettled)}})}},
	breakInv(storekit.InvChildTenant): {{eventCollection, seqOfTask(2), fixed(bson.D{{Key: "tenant_id", Value: "t9"}})}},
	breakInv(storekit.InvInvitationGuest): {
		{invitationCollection, byTask("task_id"), fixed(bson.D{{Key: "status", Value: string(models.InvitationConsumed)}})},
		{deliveryCollection, byTask("task_id"), fixed(bson.D{{Key: "state", Value: string(models.DeliveryDelivered)}})},
	},
	breakInv(storekit.InvInvitationGroup): {{invitationCollection, func(args []any) bson.D {
		return bson.D{{Key: "task_id", Value: args[0]}, {Key: "status", Value: string(models.InvitationRevoked)}}
	}, fixed(bson.D{{Key: "status", Value: string(models.InvitationVerified)}})}},
	breakInv(storekit.InvGuestSession):  {{guestSessionCollection, byTask("task_id"), fixed(bson.D{{Key: "participant_id", Value: "invitation:other"}})}},
	breakInv(storekit.InvDeliveryState): {{invitationCollection, byTask("task_id"), fixed(bson.D{{Key: "status", Value: string(models.InvitationRevoked)}})}},
	breakInv(storekit.InvTokenHash):     {{invitationCollection, byTask("task_id"), fixed(bson.D{{Key: "token_hash", Value: "ABC"}})}},
}

func breakInv(inv string) storetest.Tampering { return storetest.BreakInvariant(inv) }

func seqOfTask(seq int) func(args []any) bson.D {
	return func(args []any) bson.D { return bson.D{{Key: "task_id", Value: args[0]}, {Key: "seq", Value: seq}} }
}

// tamperOps applies what to s, reporting false when it is none of the Operations group's (the
// invitations' own states are tamperGuests').
func tamperOps(t *testing.T, s *Store, what storetest.Tampering, args ...any) (bool, error) {
	t.Helper()
	ctx := testContext(t)
	if what == breakInv(storekit.InvCandidateStatus) {
		return true, errors.New("the document store keeps no status copy on its candidates (known difference)")
	}
	if sets, ok := opsTamperings[what]; ok {
		for _, w := range sets {
			r, err := s.db.Collection(w.coll).UpdateMany(ctx, w.filter(args), bson.D{{Key: "$set", Value: w.set(args)}})
			if err != nil || r.MatchedCount == 0 {
				t.Fatalf("tamper %s on %s: matched %v, %v", what, w.coll, r, err)
			}
		}
		return true, nil
	}
	switch what {
	case storetest.CompleteOperations:
		// The open ones are in the aggregate, the finished ones (if any) in their collection.
		if _, err := s.db.Collection(operationCollection).UpdateMany(ctx, bson.D{{Key: "task_id", Value: args[0]}},
			bson.D{{Key: "$set", Value: bson.D{{Key: "state", Value: string(models.OperationCompleted)}}}}); err != nil {
			t.Fatalf("tamper %s: %v", what, err)
		}
		return true, rewriteTask(ctx, t, s, args[0], func(d *taskDoc) {
			for i := range d.Operations {
				d.Operations[i].State = string(models.OperationCompleted)
			}
		})
	case storetest.ForceCompleted:
		return true, rewriteTask(ctx, t, s, args[0], func(d *taskDoc) {
			d.Status, d.CompletedAt = string(models.StatusCompleted), &d.UpdatedAt
		})
	case breakInv(storekit.InvEventSequence):
		return true, rewriteTask(ctx, t, s, args[0], func(d *taskDoc) { d.LastEventSeq++ })
	case breakInv(storekit.InvStatusEvent):
		f := bson.D{{Key: "task_id", Value: args[0]}, {Key: "event_type", Value: string(models.EventClaimed)}}
		_, err := s.db.Collection(eventCollection).UpdateMany(ctx, f,
			bson.D{{Key: "$set", Value: bson.D{{Key: "event_type", Value: string(models.EventReleased)}}}})
		return true, err
	case breakInv(storekit.InvStatusFields):
		return true, rewriteTask(ctx, t, s, args[0], func(d *taskDoc) { d.CompletedAt = &d.UpdatedAt })
	case breakInv(storekit.InvCandidateSummary):
		return true, rewriteTask(ctx, t, s, args[0], func(d *taskDoc) { d.CandidateUsers++ })
	case breakInv(storekit.InvTagRows):
		return true, rewriteTask(ctx, t, s, args[0], func(d *taskDoc) {
			d.TagKeys = slices.DeleteFunc(d.TagKeys, func(tg tagDoc) bool { return tg.Tag == "urgent" })
		})
	case breakInv(storekit.InvCiphertext):
		return true, rewriteTask(ctx, t, s, args[0], func(d *taskDoc) { d.TaskDataEnc = d.InstructionsEnc })
	case breakInv(storekit.InvTenantCounter):
		var d taskDoc
		if err := s.tasks().FindOne(ctx, bson.D{{Key: "_id", Value: args[0]}}).Decode(&d); err != nil {
			t.Fatalf("tamper %s: %v", what, err)
		}
		// A place no task holds: the counter then counts one task too many.
		_, err := s.counters().InsertOne(ctx, placeDoc{TenantID: d.TenantID, Stripe: 1 << 30, OpenTasks: 1, TaskID: models.NewID()})
		return true, err
	}
	return false, nil
}

// rewriteTask changes the aggregate as stored, behind the store's back.
func rewriteTask(ctx context.Context, t *testing.T, s *Store, id any, change func(d *taskDoc)) error {
	t.Helper()
	var d taskDoc
	if err := s.tasks().FindOne(ctx, bson.D{{Key: "_id", Value: id}}).Decode(&d); err != nil {
		t.Fatalf("tamper task %v: %v", id, err)
	}
	next := d.clone()
	change(next)
	set, err := changedFields(&d, next)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.tasks().UpdateOne(ctx, bson.D{{Key: "_id", Value: id}}, bson.D{{Key: "$set", Value: set}}); err != nil {
		t.Fatalf("tamper task %v: %v", id, err)
	}
	return nil
}

// countEmbedded counts the rows of an embedded unit matching where (by task_id or tenant_id)
// in the aggregates that hold them.
func countEmbedded(t *testing.T, s *Store, unit string, where map[string]any) int {
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
	var docs []taskDoc
	if err := s.findAll(testContext(t), Aggregate, f, nil, &docs); err != nil {
		t.Fatalf("count %s: %v", unit, err)
	}
	n := 0
	for _, d := range docs {
		switch embedded[unit] {
		case "tag_keys":
			n += len(d.TagKeys)
		case "candidates":
			n += len(d.Candidates)
		case "exclusions":
			n += len(d.Exclusions)
		}
	}
	return n
}
