package models

import (
	"strings"
	"testing"
	"time"
)

func notifyManagers() DeadlineAction {
	return DeadlineAction{Type: DeadlineNotify, To: &NotifyTarget{Audience: NotifyManagers}}
}

func TestProjectDeadlines(t *testing.T) {
	t.Run("OK", func(t *testing.T) {
		p := baseProjection()
		p.Deadlines = []DeadlineDefinition{
			{Kind: DeadlineStart, After: "PT2S", Actions: []DeadlineAction{
				{Type: DeadlineReassign, CandidateGroups: []ParticipantRef{{ID: "leads"}}},
				{Type: DeadlineSetPriority, Priority: intPtr(90)},
				notifyManagers(),
				{Type: DeadlineNotify, To: &NotifyTarget{Participants: []ParticipantRef{{ID: "ü/?# x"}, {Type: GroupParticipant, ID: "ops"}}}},
				{Type: DeadlineFlag},
			}},
			{Kind: DeadlineCompletion, At: "2025-03-05T10:00:00+02:00", Actions: []DeadlineAction{{Type: DeadlineFlag}}},
		}
		ch, err := Project(p, now)
		if err != nil {
			t.Fatalf("got %v, want a projection", err)
		}
		if got, want := len(ch.Deadlines), 2; got != want {
			t.Fatalf("deadlines: got %d, want %d", got, want)
		}
		d0, d1 := ch.Deadlines[0], ch.Deadlines[1]
		if d0.TaskID != ch.Task.ID || d0.Tenant != testTenant || d0.Index != 0 || d1.Index != 1 || d0.State != DeadlinePending {
			t.Errorf("got %+v, want the task's pending deadline 0", d0)
		}
		if got, want := d0.DueAt, now.Add(2*time.Second); !got.Equal(want) {
			t.Errorf("after: due %v, want %v", got, want)
		}
		if got, want := d1.DueAt, time.Date(2025, 3, 5, 8, 0, 0, 0, time.UTC); !got.Equal(want) || got.Location() != time.UTC {
			t.Errorf("at: due %v, want %v in UTC", got, want)
		}
		g := d0.Actions[0].CandidateGroups[0]
		if g.Tenant != testTenant || g.Provider != DefaultProvider || g.Type != GroupParticipant {
			t.Errorf("reassign group: got %+v, want it normalized into the tenant", g)
		}
		if to := d0.Actions[3].To; len(to.Participants) != 2 || to.Participants[0].Type != UserParticipant || to.Participants[1].Type != GroupParticipant {
			t.Errorf("notify participants: got %+v", to)
		}
		if got := strings.Join(d0.ActionTypes(), ","); got != "reassign,set-priority,notify,notify,flag" {
			t.Errorf("action types: got %s", got)
		}
	})

	six := make([]DeadlineAction, 6)
	for i := range six {
		six[i] = DeadlineAction{Type: DeadlineFlag}
	}
	ok := []DeadlineAction{{Type: DeadlineFlag}}
	tests := []struct {
		name  string
		defs  []DeadlineDefinition
		field string
	}{
		{"BothAfterAndAt", []DeadlineDefinition{{Kind: DeadlineStart, After: "PT1H", At: "2025-03-05T10:00:00Z", Actions: ok}}, "deadlines[0]"},
		{"NeitherAfterNorAt", []DeadlineDefinition{{Kind: DeadlineStart, Actions: ok}}, "deadlines[0]"},
		{"ZeroDuration", []DeadlineDefinition{{Kind: DeadlineStart, After: "PT0S", Actions: ok}}, "deadlines[0].after"},
		{"NegativeDuration", []DeadlineDefinition{{Kind: DeadlineStart, After: "-PT5M", Actions: ok}}, "deadlines[0].after"},
		{"NegativeNumber", []DeadlineDefinition{{Kind: DeadlineStart, After: "P-1D", Actions: ok}}, "deadlines[0].after"},
		{"BelowOneSecond", []DeadlineDefinition{{Kind: DeadlineStart, After: "PT0.5S", Actions: ok}}, "deadlines[0].after"},
		{"P366D", []DeadlineDefinition{{Kind: DeadlineStart, After: "P366D", Actions: ok}}, "deadlines[0].after"},
		{"Months", []DeadlineDefinition{{Kind: DeadlineStart, After: "P1M", Actions: ok}}, "deadlines[0].after"},
		{"NotADuration", []DeadlineDefinition{{Kind: DeadlineStart, After: "1h", Actions: ok}}, "deadlines[0].after"},
		{"AtYearZero", []DeadlineDefinition{{Kind: DeadlineStart, At: "0000-01-01T00:00:00Z", Actions: ok}}, "deadlines[0].at"},
		{"BadAt", []DeadlineDefinition{{Kind: DeadlineStart, At: "2025-03-05 10:00", Actions: ok}}, "deadlines[0].at"},
		{"UnknownKind", []DeadlineDefinition{{Kind: "claim", After: "PT1H", Actions: ok}}, "deadlines[0].kind"},
		{"MissingKind", []DeadlineDefinition{{After: "PT1H", Actions: ok}}, "deadlines[0].kind"},
		{"SixDeadlines", []DeadlineDefinition{
			{Kind: DeadlineStart, After: "PT1H", Actions: ok}, {Kind: DeadlineStart, After: "PT1H", Actions: ok},
			{Kind: DeadlineStart, After: "PT1H", Actions: ok}, {Kind: DeadlineStart, After: "PT1H", Actions: ok},
			{Kind: DeadlineStart, After: "PT1H", Actions: ok}, {Kind: DeadlineStart, After: "PT1H", Actions: ok},
		}, "deadlines"},
		{"NoActions", []DeadlineDefinition{{Kind: DeadlineStart, After: "PT1H"}}, "deadlines[0].actions"},
		{"SixActions", []DeadlineDefinition{{Kind: DeadlineStart, After: "PT1H", Actions: six}}, "deadlines[0].actions"},
		{"UnknownAction", []DeadlineDefinition{{Kind: DeadlineStart, After: "PT1H", Actions: []DeadlineAction{{Type: DeadlineFlag}, {Type: "delete"}}}}, "deadlines[0].actions[1].type"},
		{"MissingActionType", []DeadlineDefinition{{Kind: DeadlineStart, After: "PT1H", Actions: []DeadlineAction{{}}}}, "deadlines[0].actions[0].type"},
		{"NotifyWithoutTo", []DeadlineDefinition{{Kind: DeadlineStart, After: "PT1H", Actions: []DeadlineAction{{Type: DeadlineNotify}}}}, "deadlines[0].actions[0].to"},
		{"NotifyUnknownAudience", []DeadlineDefinition{{Kind: DeadlineStart, After: "PT1H", Actions: []DeadlineAction{{Type: DeadlineNotify, To: &NotifyTarget{Audience: "everyone"}}}}}, "deadlines[0].actions[0].to"},
		{"NotifyAudienceAndParticipants", []DeadlineDefinition{{Kind: DeadlineStart, After: "PT1H", Actions: []DeadlineAction{{Type: DeadlineNotify, To: &NotifyTarget{Audience: NotifyManagers, Participants: []ParticipantRef{{ID: "bob"}}}}}}}, "deadlines[0].actions[0].to"},
		{"NotifyOtherTenant", []DeadlineDefinition{{Kind: DeadlineStart, After: "PT1H", Actions: []DeadlineAction{{Type: DeadlineNotify, To: &NotifyTarget{Participants: []ParticipantRef{{Tenant: "evil", ID: "bob"}}}}}}}, "deadlines[0].actions[0].to[0]"},
		{"NotifyControlCharacter", []DeadlineDefinition{{Kind: DeadlineStart, After: "PT1H", Actions: []DeadlineAction{{Type: DeadlineNotify, To: &NotifyTarget{Participants: []ParticipantRef{{ID: "bob\x00"}}}}}}}, "deadlines[0].actions[0].to[0].id"},
		{"NotifyGuest", []DeadlineDefinition{{Kind: DeadlineStart, After: "PT1H", Actions: []DeadlineAction{{Type: DeadlineNotify, To: &NotifyTarget{Participants: []ParticipantRef{{Provider: GuestProvider, ID: "invitation:x"}}}}}}}, "deadlines[0].actions[0].to[0].provider"},
		{"ReassignToNobody", []DeadlineDefinition{{Kind: DeadlineStart, After: "PT1H", Actions: []DeadlineAction{{Type: DeadlineReassign}}}}, "deadlines[0].actions[0]"},
		{"ReassignGroupAsUser", []DeadlineDefinition{{Kind: DeadlineStart, After: "PT1H", Actions: []DeadlineAction{{Type: DeadlineReassign, CandidateUsers: []ParticipantRef{{Type: GroupParticipant, ID: "g"}}}}}}, "deadlines[0].actions[0].candidateUsers[0].type"},
		{"ReassignWithPriority", []DeadlineDefinition{{Kind: DeadlineStart, After: "PT1H", Actions: []DeadlineAction{{Type: DeadlineReassign, CandidateUsers: []ParticipantRef{{ID: "u"}}, Priority: intPtr(3)}}}}, "deadlines[0].actions[0].priority"},
		{"SetPriorityMissing", []DeadlineDefinition{{Kind: DeadlineStart, After: "PT1H", Actions: []DeadlineAction{{Type: DeadlineSetPriority}}}}, "deadlines[0].actions[0].priority"},
		{"SetPriorityOutOfRange", []DeadlineDefinition{{Kind: DeadlineStart, After: "PT1H", Actions: []DeadlineAction{{Type: DeadlineSetPriority, Priority: intPtr(101)}}}}, "deadlines[0].actions[0].priority"},
		{"FlagWithTo", []DeadlineDefinition{{Kind: DeadlineStart, After: "PT1H", Actions: []DeadlineAction{{Type: DeadlineFlag, To: &NotifyTarget{Audience: NotifyManagers}}}}}, "deadlines[0].actions[0].to"},
		{"SecondDeadlineNamed", []DeadlineDefinition{{Kind: DeadlineStart, After: "PT1H", Actions: ok}, {Kind: DeadlineStart, After: "PT1H", Actions: ok}, {Kind: DeadlineStart, After: "PT1H", Actions: []DeadlineAction{{Type: "x"}}}}, "deadlines[2].actions[0].type"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := baseProjection()
			p.Deadlines = tt.defs
			_, err := Project(p, now)
			wantField(t, err, tt.field)
			if !strings.Contains(string(ErrorCode(err)), "validation-failed") && ErrorCode(err) != CodeInvalidPriority {
				t.Errorf("code: got %s, want validation-failed", ErrorCode(err))
			}
		})
	}
}

func TestParseDeadlineAfter(t *testing.T) {
	for in, want := range map[string]time.Duration{
		"PT1S": time.Second, "P365D": 365 * 24 * time.Hour, "P1W": 7 * 24 * time.Hour,
		"P1DT2H3M4.5S": 26*time.Hour + 3*time.Minute + 4500*time.Millisecond, "PT1,5S": 1500 * time.Millisecond,
	} {
		got, err := ParseDeadlineAfter(in)
		if err != nil || got != want {
			t.Errorf("%s: got %v, %v, want %v", in, got, err, want)
		}
	}
	for _, in := range []string{"", "P", "PT", "P1DT", "PT0S", "PT0.999S", "P365DT1S", "P53W", "P1Y", "PT1H1H", "PT1M1H", "P1D1W", "PT1.5H", "pt1s", " PT1S", "PT1S ", "P1e3D", "PTNaNS", "PT99999999999999999999999S"} {
		if got, err := ParseDeadlineAfter(in); err == nil {
			t.Errorf("%q: got %v, want a refusal", in, got)
		}
	}
}
