package storetest

import (
	"testing"

	"usertasks/models"
)

func testCorruption(t *testing.T, h Harness) {
	s := h.open(t, Options{})

	cases := []struct {
		name string
		what Tampering
	}{
		{"UndecodableCiphertext", CorruptInstructions},
		{"UnknownKey", CorruptDataKey},
		{"UnknownStatus", CorruptStatus},
		{"UndecodableActions", CorruptActions},
		{"CandidateStatusCopyDiffers", CorruptCandidateStatus},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			task := CreateTask(t, s, TaskOpts{Instructions: "secret", Data: `{"a":1}`, CandidateUsers: []string{"ann"}})
			h.tamper(t, s, c.what, task.ID)
			_, err := s.Get(ctx(t), "t1", task.ID)
			wantIs(t, err, models.ErrCorrupt)
			ce, ok := err.(*models.CorruptError)
			if !ok || ce.TaskID != task.ID {
				t.Fatalf("error %v does not name task %s", err, task.ID)
			}
			_, err = s.Get(ctx(t), "t2", task.ID)
			wantIs(t, err, models.ErrNotFound)
		})
	}

	t.Run("CiphertextMovedBetweenTasks", func(t *testing.T) {
		a := CreateTask(t, s, TaskOpts{Instructions: "for a"})
		b := CreateTask(t, s, TaskOpts{Instructions: "for b"})
		h.tamper(t, s, MoveInstructions, a.ID, b.ID)
		_, err := s.Get(ctx(t), "t1", b.ID)
		wantIs(t, err, models.ErrCorrupt)
	})
}
