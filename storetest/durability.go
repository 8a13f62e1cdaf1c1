package storetest

import (
	"reflect"
	"testing"

	"usertasks/models"
)

func testDurability(t *testing.T, h Harness) {
	s := h.open(t, Options{})
	a := CreateTask(t, s, TaskOpts{Instructions: "keep me", Data: `{"k":"v"}`, Tags: []string{"x"}, CandidateGroups: []string{"g"}})
	b := CreateTask(t, s, TaskOpts{Assignee: ptr(User("t1", "ann"))})
	if _, err := s.Mutate(ctx(t), "t1", b.ID, "op-d", transition(models.StatusCompleting, "op-d")); err != nil {
		t.Fatal(err)
	}
	beforeA, beforeB := mustGet(t, s, "t1", a.ID), mustGet(t, s, "t1", b.ID)
	eventsB := mustEvents(t, s, "t1", b.ID)

	s = h.reopen(t, s, Options{})

	afterA, afterB := mustGet(t, s, "t1", a.ID), mustGet(t, s, "t1", b.ID)
	normalize(&beforeA)
	normalize(&afterA)
	normalize(&beforeB)
	normalize(&afterB)
	if !reflect.DeepEqual(beforeA, afterA) || !reflect.DeepEqual(beforeB, afterB) {
		t.Fatalf("tasks changed across close and reopen")
	}
	if got := mustEvents(t, s, "t1", b.ID); !reflect.DeepEqual(got, eventsB) {
		t.Fatalf("events changed across close and reopen")
	}
	op, err := s.Operation(ctx(t), "t1", b.ID, "op-d")
	if err != nil || op.State != models.OperationAccepted || string(op.Payload) != `{"approved":true}` {
		t.Fatalf("operation after reopen: %+v, %v", op, err)
	}
	rows, err := s.Resumptions(ctx(t), "t1", b.ID)
	if err != nil || len(rows) != 1 || rows[0].State != models.DeliveryPending {
		t.Fatalf("outbox after reopen: %+v, %v", rows, err)
	}
}
