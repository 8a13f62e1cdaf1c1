package models

import (
	"errors"
	"slices"
	"strings"
	"testing"
	"time"
)

func TestNewDeadlinePolicy(t *testing.T) {
	boss := ParticipantRef{Provider: DefaultProvider, Type: UserParticipant, ID: "boss", DisplayName: "Bea Boss"}
	flag := []DeadlineAction{{Type: DeadlineFlag}}
	ok := DeadlineDefinition{Kind: DeadlineStart, After: "PT4H", Actions: []DeadlineAction{
		{Type: DeadlineReassign, CandidateGroups: []ParticipantRef{{ID: "leads"}, {ID: "leads"}}}, {Type: DeadlineFlag}}}

	t.Run("OKNormalized", func(t *testing.T) {
		p, err := NewDeadlinePolicy("t1", "x/y?z#1 ü", []DeadlineDefinition{ok}, boss)
		if err != nil {
			t.Fatal(err)
		}
		g := p.Deadlines[0].Actions[0].CandidateGroups
		if len(g) != 1 || g[0].Tenant != "t1" || g[0].Provider != DefaultProvider || g[0].Type != GroupParticipant {
			t.Fatalf("groups %+v, want leads once, of t1 and the default provider", g)
		}
		if p.ChangedBy.Tenant != "t1" || p.DefinitionID != "x/y?z#1 ü" || p.Deadlines[0].After != "PT4H" {
			t.Fatalf("policy %+v", p)
		}
	})

	for _, tt := range []struct {
		name, def string
		defs      []DeadlineDefinition
		field     string
	}{
		{"NoDeadlines", "d", nil, "deadlines"},
		{"SixDeadlines", "d", slices.Repeat([]DeadlineDefinition{ok}, 6), "deadlines"},
		{"SixActions", "d", []DeadlineDefinition{{Kind: DeadlineStart, After: "PT1H", Actions: slices.Repeat(flag, 6)}}, "deadlines[0].actions"},
		{"BothAfterAndAt", "d", []DeadlineDefinition{{Kind: DeadlineStart, After: "PT1H", At: "2030-01-01T00:00:00Z", Actions: flag}}, "deadlines[0]"},
		{"ZeroDuration", "d", []DeadlineDefinition{{Kind: DeadlineStart, After: "PT0S", Actions: flag}}, "deadlines[0].after"},
		{"UnknownKind", "d", []DeadlineDefinition{{Kind: "soon", After: "PT1H", Actions: flag}}, "deadlines[0].kind"},
		{"UnknownAction", "d", []DeadlineDefinition{{Kind: DeadlineStart, After: "PT1H", Actions: []DeadlineAction{{Type: "teleport"}}}}, "deadlines[0].actions[0].type"},
		{"DefinitionBlank", " ", []DeadlineDefinition{ok}, "workflowDefinitionId"},
		{"DefinitionControl", "a\x00b", []DeadlineDefinition{ok}, "workflowDefinitionId"},
		{"DefinitionInvisible", "a\u200bb", []DeadlineDefinition{ok}, "workflowDefinitionId"},
		{"DefinitionTooLong", strings.Repeat("d", MaxWorkflowIDLength+1), []DeadlineDefinition{ok}, "workflowDefinitionId"},
	} {
		t.Run("Err"+tt.name, func(t *testing.T) {
			_, err := NewDeadlinePolicy("t1", tt.def, tt.defs, boss)
			var ve *ValidationError
			if !errors.As(err, &ve) || ve.Fields[0].Field != tt.field {
				t.Fatalf("error %v, want a validation error naming %s", err, tt.field)
			}
		})
	}
}

func TestPolicyDeadlines(t *testing.T) {
	created := time.Date(2026, 3, 2, 10, 0, 0, 0, time.UTC)
	p := DeadlinePolicy{Tenant: "t1", DefinitionID: "d", Revision: 3, Deadlines: []DeadlineDefinition{
		{Kind: DeadlineStart, After: "PT4H", Actions: []DeadlineAction{{Type: DeadlineFlag}}},
		{Kind: DeadlineCompletion, At: "2030-01-01T00:00:00Z", Actions: []DeadlineAction{{Type: DeadlineFlag}}},
	}}
	ds, err := PolicyDeadlines(p, "task-1", created)
	if err != nil {
		t.Fatal(err)
	}
	if len(ds) != 2 || !ds[0].DueAt.Equal(created.Add(4*time.Hour)) || ds[0].TaskID != "task-1" || ds[1].Index != 1 ||
		!ds[1].DueAt.Equal(time.Date(2030, 1, 1, 0, 0, 0, 0, time.UTC)) || ds[0].State != DeadlinePending {
		t.Fatalf("deadlines %+v", ds)
	}
	p.Deadlines[0].After = "P2Y" // a stored policy this version refuses
	if _, err := PolicyDeadlines(p, "task-1", created); !errors.Is(err, ErrCorrupt) {
		t.Fatalf("error %v, want corrupt", err)
	}
}
