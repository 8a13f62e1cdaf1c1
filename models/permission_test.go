package models

import "testing"

func TestHasPermission(t *testing.T) {
	tests := []struct {
		name     string
		grants   []string
		required string
		want     bool
	}{
		// Exact grants.
		{"ExactView", []string{PermView}, PermView, true},
		{"ExactParticipantsView", []string{PermParticipantsView}, PermParticipantsView, true},
		{"ExactRuntimeWrite", []string{PermRuntimeWrite}, PermRuntimeWrite, true},
		{"OneOfMany", []string{"other:thing", PermClaim}, PermClaim, true},

		// Verb wildcard: any verb of that resource only.
		{"VerbWildcardView", []string{"user-tasks:*"}, PermView, true},
		{"VerbWildcardSupervise", []string{"user-tasks:*"}, PermSupervise, true},
		{"VerbWildcardNotSubResource", []string{"user-tasks:*"}, PermParticipantsView, false},
		{"VerbWildcardNotRuntime", []string{"user-tasks:*"}, PermRuntimeWrite, false},
		{"VerbWildcardOtherResource", []string{"user-tasks/participants:*"}, PermView, false},
		{"VerbWildcardOnSubResource", []string{"user-tasks/participants:*"}, PermParticipantsView, true},

		// Resource wildcard: that verb on any resource.
		{"ResourceWildcardView", []string{"*:view"}, PermView, true},
		{"ResourceWildcardSubResourceView", []string{"*:view"}, PermParticipantsView, true},
		{"ResourceWildcardOtherVerb", []string{"*:view"}, PermClaim, false},
		{"ResourceWildcardWrite", []string{"*:write"}, PermRuntimeWrite, true},

		// Sub-resource wildcard: the resource and everything below it, for that verb.
		{"SubResourceWildcardSelf", []string{"user-tasks/*:view"}, PermView, true},
		{"SubResourceWildcardChild", []string{"user-tasks/*:view"}, PermParticipantsView, true},
		{"SubResourceWildcardOtherVerb", []string{"user-tasks/*:view"}, PermClaim, false},
		{"SubResourceWildcardRuntimeWrite", []string{"user-tasks/*:write"}, PermRuntimeWrite, true},
		{"SubResourceWildcardAnyVerb", []string{"user-tasks/*:*"}, PermRuntimeWrite, true},
		{"SubResourceWildcardPrefixOnly", []string{"user/*:view"}, PermView, false},
		{"SubResourceWildcardNoBase", []string{"/*:view"}, PermView, false},
		{"SubResourceWildcardOfChild", []string{"user-tasks/participants/*:view"}, PermView, false},

		// Everything.
		{"Star", []string{"*"}, PermSupervise, true},
		{"StarRuntime", []string{"*"}, PermRuntimeWrite, true},
		{"StarStar", []string{"*:*"}, PermParticipantsView, true},

		// No verb implies another.
		{"ViewNotClaim", []string{PermView}, PermClaim, false},
		{"SuperviseNotAssign", []string{PermSupervise}, PermAssign, false},
		{"AssignNotView", []string{PermAssign}, PermView, false},
		{"ParticipantsViewNotView", []string{PermParticipantsView}, PermView, false},
		{"ViewNotParticipantsView", []string{PermView}, PermParticipantsView, false},

		// Unknown, legacy and malformed grants grant nothing.
		{"NoGrants", nil, PermView, false},
		{"LegacyReversed", []string{"read:user-tasks"}, PermView, false},
		{"LegacyBareResource", []string{"user-tasks"}, PermView, false},
		{"Empty", []string{""}, PermView, false},
		{"MissingResource", []string{":view"}, PermView, false},
		{"MissingVerb", []string{"user-tasks:"}, PermView, false},
		{"ExtraColon", []string{"user-tasks:view:x"}, PermView, false},
		{"CaseSensitive", []string{"User-Tasks:View"}, PermView, false},
		{"Whitespace", []string{" user-tasks:view"}, PermView, false},
		{"PartialVerbWildcard", []string{"user-tasks:vi*"}, PermView, false},
		{"PartialResourceWildcard", []string{"user-*:view"}, PermView, false},
		{"DoubleStarResource", []string{"**:view"}, PermView, false},
		{"UnknownResource", []string{"tasks:view"}, PermView, false},

		// A required permission must be concrete and well formed.
		{"RequiredEmpty", []string{"*"}, "", false},
		{"RequiredWildcard", []string{"*"}, "user-tasks:*", false},
		{"RequiredNoVerb", []string{"*"}, "user-tasks", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := HasPermission(tt.grants, tt.required); got != tt.want {
				t.Fatalf("HasPermission(%q, %q) = %v, want %v", tt.grants, tt.required, got, tt.want)
			}
		})
	}
}

func TestActorCan(t *testing.T) {
	t.Run("OK", func(t *testing.T) {
		a := Actor{Permissions: []string{"user-tasks/*:view"}}
		if !ActorCan(a, PermParticipantsView) {
			t.Fatal("grant user-tasks/*:view should cover participants:view")
		}
	})
	t.Run("NoGrants", func(t *testing.T) {
		if ActorCan(Actor{}, PermView) {
			t.Fatal("an actor without grants can do nothing")
		}
	})
	t.Run("SystemHoldsNoGrants", func(t *testing.T) {
		if ActorCan(SystemActor("t1"), PermView) {
			t.Fatal("the system actor is authorized by its own rules, not by grants")
		}
	})
}
