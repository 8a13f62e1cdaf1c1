package storetest

import (
	"testing"

	"usertasks/models"
)

func testCorruption(t *testing.T, h Harness) {
	s := h.Open(t, Options{})

	cases := []struct {
		name, sql string
	}{
		{"UndecodableCiphertext", "UPDATE user_tasks SET instructions_enc = 'v1:test:AAAA' WHERE id = ?"},
		{"UnknownKey", "UPDATE user_tasks SET task_data_enc = 'v1:nokey:AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA' WHERE id = ?"},
		{"UnknownStatus", "UPDATE user_tasks SET status = 'Bogus' WHERE id = ?"},
		{"UndecodableActions", "UPDATE user_tasks SET actions_json = 'not json' WHERE id = ?"},
		{"CandidateStatusCopyDiffers", "UPDATE user_task_candidates SET task_status = 'Completed' WHERE task_id = ?"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			task := CreateTask(t, s, TaskOpts{Instructions: "secret", Data: `{"a":1}`, CandidateUsers: []string{"ann"}})
			h.Exec(t, s, rebind(h, c.sql), task.ID)
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
		h.Exec(t, s, rebind(h, "UPDATE user_tasks SET instructions_enc = (SELECT x.instructions_enc FROM (SELECT instructions_enc FROM user_tasks WHERE id = ?) x) WHERE id = ?"), a.ID, b.ID)
		_, err := s.Get(ctx(t), "t1", b.ID)
		wantIs(t, err, models.ErrCorrupt)
	})
}

// rebind turns ? placeholders into $n for PostgreSQL.
func rebind(h Harness, q string) string {
	if h.Name != "PostgreSQL" {
		return q
	}
	out := make([]byte, 0, len(q)+8)
	n := 0
	for i := 0; i < len(q); i++ {
		if q[i] == '?' {
			n++
			out = append(out, '$')
			out = append(out, []byte(itoa(n))...)
			continue
		}
		out = append(out, q[i])
	}
	return string(out)
}

func itoa(n int) string {
	if n < 10 {
		return string(rune('0' + n))
	}
	return itoa(n/10) + string(rune('0'+n%10))
}
