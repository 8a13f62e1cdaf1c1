package models

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestProjectRefusesControlCharacters covers every identifier and short text of a projection:
// a control character or a bidirectional override in it is a validation failure naming the
// field. Multi-line text keeps its line breaks; protected free content is not text and passes.
func TestProjectRefusesControlCharacters(t *testing.T) {
	participant := func(f func(*ParticipantRef)) *ParticipantRef {
		r := ParticipantRef{ID: "ursula"}
		f(&r)
		return &r
	}
	fields := []struct {
		field string
		set   func(p *Projection, bad string)
	}{
		{"tenant", func(p *Projection, bad string) { p.Tenant = "acme" + bad }},
		{"workflowDefinitionId", func(p *Projection, bad string) { p.Workflow.DefinitionID += bad }},
		{"workflowDefinitionName", func(p *Projection, bad string) { p.Workflow.DefinitionName += bad }},
		{"workflowInstanceId", func(p *Projection, bad string) { p.Workflow.InstanceID += bad }},
		{"workflowInstanceReference", func(p *Projection, bad string) { p.Workflow.InstanceReference = "ref" + bad }},
		{"activityInstanceId", func(p *Projection, bad string) { p.Workflow.ActivityInstanceID += bad }},
		{"bookmarkId", func(p *Projection, bad string) { p.Workflow.BookmarkID += bad }},
		{"title", func(p *Projection, bad string) { p.Title += bad }},
		{"summary", func(p *Projection, bad string) { p.Summary += bad }},
		{"reference", func(p *Projection, bad string) { p.Reference = "INV" + bad }},
		{"taskType", func(p *Projection, bad string) { p.TaskType = "approval" + bad }},
		{"tags[1]", func(p *Projection, bad string) { p.Tags = []string{"ok", "t" + bad + "x"} }},
		{"requester.id", func(p *Projection, bad string) { p.Requester = participant(func(r *ParticipantRef) { r.ID += bad }) }},
		{"requester.provider", func(p *Projection, bad string) {
			p.Requester = participant(func(r *ParticipantRef) { r.Provider = "idp" + bad })
		}},
		{"requester.displayName", func(p *Projection, bad string) {
			p.Requester = participant(func(r *ParticipantRef) { r.DisplayName = "Ursula" + bad })
		}},
		{"assignee.id", func(p *Projection, bad string) { p.Assignee = participant(func(r *ParticipantRef) { r.ID += bad }) }},
		{"assignee.displayName", func(p *Projection, bad string) {
			p.Assignee = participant(func(r *ParticipantRef) { r.DisplayName = "Ursula" + bad })
		}},
		{"candidateUsers[0].id", func(p *Projection, bad string) { p.CandidateUsers[0].ID += bad }},
		{"candidateGroups[0].id", func(p *Projection, bad string) { p.CandidateGroups[0].ID += bad }},
		{"candidateGroups[0].provider", func(p *Projection, bad string) { p.CandidateGroups[0].Provider = "idp" + bad }},
		{"excludedUsers[0].id", func(p *Projection, bad string) { p.ExcludedUsers[0].ID += bad }},
		{"actions[1].key", func(p *Projection, bad string) { p.Actions[1].Key = "Rej" + bad + "ect" }},
		{"actions[1].label", func(p *Projection, bad string) { p.Actions[1].Label += bad }},
		{"invitations[0].verifierName", func(p *Projection, bad string) { p.Invitations[0].VerifierName += bad }},
		{"invitations[0].recipient", func(p *Projection, bad string) { p.Invitations[0].Recipient = "a@example.com" + bad }},
	}
	for _, bad := range []string{"\x00", "\x1b[2J", "\u0085", "\u202e", "\u2066", "\x7f"} {
		for _, f := range fields {
			t.Run(f.field+"_"+strings.Trim(jsonString(bad), `"`), func(t *testing.T) {
				p := baseProjection()
				f.set(&p, bad)
				ch, err := Project(p, now)
				wantCode(t, err, CodeValidationFailed)
				wantField(t, err, f.field)
				if ch.Event != nil || ch.Operation != nil {
					t.Errorf("a refused projection produced rows: %+v", ch)
				}
			})
		}
	}

	t.Run("OK_LineBreaksInTheSummary", func(t *testing.T) {
		p := baseProjection()
		p.Summary = "first line\r\nsecond\tline"
		if _, err := Project(p, now); err != nil {
			t.Fatalf("got %v, want the multi-line summary accepted", err)
		}
	})
	t.Run("OK_DirectionMarksInHumanText", func(t *testing.T) {
		p := baseProjection()
		p.Title, p.Workflow.DefinitionName = "אישור חשבונית\u200f 42", "מאשר\u200e"
		if _, err := Project(p, now); err != nil {
			t.Fatalf("got %v, want direction marks accepted in labels", err)
		}
	})
	t.Run("ErrDirectionMarksInIdentifiers", func(t *testing.T) {
		p := baseProjection()
		p.CandidateUsers[0].ID = "alice\u200f"
		_, err := Project(p, now)
		wantField(t, err, "candidateUsers[0].id")
	})
	t.Run("OK_ProtectedFreeContentIsNotText", func(t *testing.T) {
		p := baseProjection()
		p.Instructions = "line\x00\u202e"
		p.Data = json.RawMessage(`{"note":"\u0000\u202e"}`)
		if _, err := Project(p, now); err != nil {
			t.Fatalf("got %v, want instructions and task data left alone", err)
		}
	})
}

func jsonString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}
