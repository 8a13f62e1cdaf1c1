package storekit

import (
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"testing"

	"usertasks/keyring"
	"usertasks/models"
)

func testSealer(t *testing.T) Sealer {
	t.Helper()
	spec, err := keyring.Generate("k1")
	if err != nil {
		t.Fatal(err)
	}
	keys, err := keyring.Parse(spec)
	if err != nil {
		t.Fatal(err)
	}
	return Sealer{Keys: keys}
}

// TestSealerProtectedRoundTrip seals every protected column of a task and opens each back into
// an empty Protected: the parts come back as they were, and an empty part is sealed as nothing.
func TestSealerProtectedRoundTrip(t *testing.T) {
	s := testSealer(t)
	task := &models.Task{ID: "0190a000-0000-7000-8000-000000000001", Protected: models.Protected{
		Instructions:   "secret steps",
		Data:           json.RawMessage(`{"iban":"DE00"}`),
		Form:           &models.PinnedForm{},
		CompletionData: json.RawMessage(`{"ok":true}`),
	}}
	var got models.Protected
	for _, col := range ProtectedColumns {
		env, err := s.SealProtected(task, col.Name)
		if err != nil {
			t.Fatalf("seal %s: %v", col.Name, err)
		}
		if col.Name == ColInvitationDefs && env != nil {
			t.Fatalf("no invitation definitions, yet %s holds %q", col.Name, *env)
		}
		if env != nil && strings.Contains(*env, "secret") {
			t.Fatalf("%s holds the plaintext", col.Name)
		}
		if err := s.OpenProtected(task.ID, col.Name, env, &got); err != nil {
			t.Fatalf("open %s: %v", col.Name, err)
		}
		if col.Differs(&got, &task.Protected) {
			t.Fatalf("%s: opened %+v, sealed %+v", col.Name, got, task.Protected)
		}
	}
	if !reflect.DeepEqual(got, task.Protected) {
		t.Fatalf("opened %+v, want %+v", got, task.Protected)
	}
}

// TestSealerOpenElsewhereIsCorrupt moves a sealed value to another row and another column: it
// does not decrypt there, and the error is a CorruptError naming the task, without the value.
func TestSealerOpenElsewhereIsCorrupt(t *testing.T) {
	s := testSealer(t)
	env, err := s.Seal("row-1", ColInstructions, []byte("secret steps"))
	if err != nil {
		t.Fatal(err)
	}
	for name, open := range map[string]func() error{
		"OtherRow":    func() error { _, err := s.Open("task-1", "row-2", ColInstructions, env); return err },
		"OtherColumn": func() error { _, err := s.Open("task-1", "row-1", ColTaskData, env); return err },
	} {
		t.Run(name, func(t *testing.T) {
			err := open()
			var ce *models.CorruptError
			if !errors.As(err, &ce) || ce.TaskID != "task-1" || strings.Contains(err.Error(), "secret") {
				t.Fatalf("error %v, want a CorruptError naming task-1 without the plaintext", err)
			}
		})
	}
}
