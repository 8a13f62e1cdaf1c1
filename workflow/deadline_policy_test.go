package workflow

import (
	"encoding/json"
	"reflect"
	"testing"

	"usertasks/models"
)

// TestProjectionDeadlinesAbsentOrEmpty: a projection that leaves `deadlines` out reaches the
// domain as nil (the tenant's default policy applies), an explicit empty list as an empty one
// (the workflow's own choice of none).
func TestProjectionDeadlinesAbsentOrEmpty(t *testing.T) {
	for _, tt := range []struct {
		name, task string
		wantNil    bool
	}{
		{"Absent", `{"title":"T"}`, true},
		{"Null", `{"title":"T","deadlines":null}`, true},
		{"Empty", `{"title":"T","deadlines":[]}`, false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var r ProjectionRequest
			body := `{"workflowDefinitionId":"d","workflowInstanceId":"i","activityInstanceId":"a","bookmarkId":"b","task":` + tt.task + `}`
			if err := json.Unmarshal([]byte(body), &r); err != nil {
				t.Fatal(err)
			}
			p, _, problems := r.projection("t1")
			if len(problems) > 0 {
				t.Fatalf("problems %v", problems)
			}
			if got := p.Deadlines == nil; got != tt.wantNil || len(p.Deadlines) != 0 {
				t.Fatalf("deadlines %#v, want nil %v", p.Deadlines, tt.wantNil)
			}
		})
	}
}

// TestDeadlineSpecsRoundTrip: the policy endpoints answer the deadlines in the wire shape they
// took them in (an audience as a string, participants as a list).
func TestDeadlineSpecsRoundTrip(t *testing.T) {
	raw := `[{"kind":"start","after":"PT4H","actions":[{"type":"notify","to":"managers"},` +
		`{"type":"notify","to":[{"id":"ann/?#ü"},{"type":"group","id":"ops"}]},` +
		`{"type":"reassign","candidateUsers":[{"id":"bob"}],"candidateGroups":[{"id":"leads"}]},` +
		`{"type":"set-priority","priority":90},{"type":"flag"}]},{"kind":"completion","at":"2030-01-01T00:00:00Z","actions":[{"type":"flag"}]}]`
	var specs []DeadlineSpec
	if err := json.Unmarshal([]byte(raw), &specs); err != nil {
		t.Fatal(err)
	}
	p, err := models.NewDeadlinePolicy("t1", "d", DeadlineDefinitions(specs), models.ParticipantRef{Provider: "default", Type: models.UserParticipant, ID: "boss"})
	if err != nil {
		t.Fatal(err)
	}
	out, err := json.Marshal(DeadlineSpecs(p.Deadlines))
	if err != nil {
		t.Fatal(err)
	}
	var back []DeadlineSpec
	if err := json.Unmarshal(out, &back); err != nil {
		t.Fatal(err)
	}
	again, err := models.NewDeadlinePolicy("t1", "d", DeadlineDefinitions(back), p.ChangedBy)
	if err != nil {
		t.Fatalf("the answered deadlines do not validate again: %v\n%s", err, out)
	}
	if !reflect.DeepEqual(again.Deadlines, p.Deadlines) {
		t.Fatalf("round trip changed the deadlines:\n%+v\n%+v", again.Deadlines, p.Deadlines)
	}
	var generic []map[string]any
	_ = json.Unmarshal(out, &generic)
	if to := generic[0]["actions"].([]any)[0].(map[string]any)["to"]; to != "managers" {
		t.Fatalf("audience answered as %v", to)
	}
}
