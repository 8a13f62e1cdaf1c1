package usertask

import (
	"encoding/json"
	"errors"
	"reflect"
	"testing"
	"time"
)

func TestISODuration(t *testing.T) {
	for d, want := range map[time.Duration]string{
		time.Second:                "PT1S",
		2 * time.Second:            "PT2S",
		90 * time.Minute:           "PT1H30M",
		36 * time.Hour:             "P1DT12H",
		365 * 24 * time.Hour:       "P365D",
		1500 * time.Millisecond:    "PT1.5S",
		-time.Hour:                 "-PT1H",
		26*time.Hour + time.Second: "P1DT2H1S",
	} {
		if got := isoDuration(d); got != want {
			t.Errorf("%s → %q, want %q", d, got, want)
		}
	}
}

// The projection carries the deadlines in User Tasks' wire format (docs/runtime-protocol.md):
// after as ISO 8601, at as RFC 3339 UTC, notify's to as a string or typed participants.
func TestProjectionDeadlines(t *testing.T) {
	ops := Participant{ID: "ops/eu?x#1 ü", Provider: "corp"}
	at := time.Date(2030, 1, 2, 4, 5, 6, 0, time.FixedZone("CET", 3600))
	def := Definition{Step: "approve", Title: "Approve", Deadlines: []Deadline{
		{Kind: DeadlineStart, After: 2 * time.Hour, Actions: []DeadlineAction{
			Reassign(nil, []Participant{ops}), SetPriority(90), NotifyManagers(), Flag()}},
		{Kind: DeadlineCompletion, At: at, Actions: []DeadlineAction{
			NotifyPeople([]Participant{{ID: "bob"}}, []Participant{ops}), NotifyCandidates(), NotifyAssignee()}},
	}}
	p, err := def.projection("invoice", "inv/1", "run-1")
	if err != nil {
		t.Fatal(err)
	}
	raw, err := json.Marshal(p.Task.Deadlines)
	if err != nil {
		t.Fatal(err)
	}
	want := `[{"kind":"start","after":"PT2H","actions":[{"type":"reassign","candidateGroups":[{"provider":"corp","id":"ops/eu?x#1 ü"}]},{"type":"set-priority","priority":90},{"type":"notify","to":"managers"},{"type":"flag"}]},` +
		`{"kind":"completion","at":"2030-01-02T03:05:06Z","actions":[{"type":"notify","to":[{"type":"user","id":"bob"},{"type":"group","provider":"corp","id":"ops/eu?x#1 ü"}]},{"type":"notify","to":"candidates"},{"type":"notify","to":"assignee"}]}]`
	if string(raw) != want {
		t.Fatalf("deadlines on the wire:\n%s\nwant\n%s", raw, want)
	}

	// The projection travels through the memo and activity inputs as JSON; so does a
	// Definition in a workflow's input.
	var back Projection
	if b, err := json.Marshal(p); err != nil || json.Unmarshal(b, &back) != nil || !reflect.DeepEqual(back.Task.Deadlines, p.Task.Deadlines) {
		t.Fatalf("the projection's deadlines do not round-trip: %+v", back.Task.Deadlines)
	}
	var defBack Definition
	if b, err := json.Marshal(def); err != nil || json.Unmarshal(b, &defBack) != nil || !reflect.DeepEqual(defBack.Deadlines[1].Actions, def.Deadlines[1].Actions) {
		t.Fatalf("the definition's deadlines do not round-trip: %+v", defBack.Deadlines)
	}

	none, err := Definition{Step: "approve", Title: "Approve"}.projection("invoice", "inv/1", "run-1")
	if b, _ := json.Marshal(none.Task); err != nil || json.Valid(b) && containsKey(b, "deadlines") {
		t.Fatalf("a definition without deadlines sends %s", b)
	}
}

func TestProjectionDeadlineNeedsOneTime(t *testing.T) {
	for name, d := range map[string]Deadline{
		"neither": {Kind: DeadlineStart, Actions: []DeadlineAction{Flag()}},
		"both":    {Kind: DeadlineStart, After: time.Hour, At: time.Now(), Actions: []DeadlineAction{Flag()}},
	} {
		_, err := Definition{Step: "approve", Title: "x", Deadlines: []Deadline{d}}.projection("w", "id", "run")
		if !errors.Is(err, errDeadlineWhen) {
			t.Errorf("%s: %v, want the one-time error", name, err)
		}
	}
}

func containsKey(b []byte, key string) bool {
	var m map[string]json.RawMessage
	_ = json.Unmarshal(b, &m)
	_, ok := m[key]
	return ok
}
