package docstore

import (
	"testing"

	"usertasks/models"
	"usertasks/storekit"
)

// TestEligible checks the available scope's entry-by-entry test, which decides what the dotted
// narrowing of availableConds cannot: fields matched on different candidate entries, sources,
// the membership mode, other tenants' groups and exclusions.
func TestEligible(t *testing.T) {
	me := models.ParticipantRef{Provider: "idp", Type: models.UserParticipant, ID: "me"}
	f := models.TaskFilter{Tenant: "t1", Actor: models.Actor{Subject: me, Groups: []models.ParticipantRef{
		{Provider: "idp", Type: models.GroupParticipant, ID: "ops"},
		{Tenant: "t2", Provider: "idp", Type: models.GroupParticipant, ID: "other-tenant"},
	}}}
	user := func(source models.CandidateSource, provider, id string) candidateDoc {
		return candidateDoc{CandidateRow: storekit.CandidateRow{Source: string(source),
			ParticipantRow: storekit.ParticipantRow{Provider: provider, ParticipantType: string(models.UserParticipant), ParticipantID: id}}}
	}
	group := func(id string) candidateDoc {
		return candidateDoc{CandidateRow: storekit.CandidateRow{Source: string(models.SourceDirectGroup),
			ParticipantRow: storekit.ParticipantRow{Provider: "idp", ParticipantType: string(models.GroupParticipant), ParticipantID: id}}}
	}
	live, snapshot := string(models.MembershipLive), string(models.MembershipSnapshot)
	for _, c := range []struct {
		name       string
		mode       string
		candidates []candidateDoc
		excluded   bool
		want       bool
	}{
		{"DirectUser", live, []candidateDoc{user(models.SourceDirectUser, "idp", "me")}, false, true},
		{"SnapshotMember", snapshot, []candidateDoc{user(models.SourceSnapshotMember, "idp", "me")}, false, true},
		{"FieldsOnDifferentEntries", live, []candidateDoc{user(models.SourceDirectUser, "idp", "ann"), user(models.SourceDirectUser, "other", "me")}, false, false},
		{"InvitationIsNotCandidacy", live, []candidateDoc{user(models.SourceInvitation, "idp", "me")}, false, false},
		{"LiveGroup", live, []candidateDoc{group("ops")}, false, true},
		{"SnapshotGroupNeedsItsMembers", snapshot, []candidateDoc{group("ops")}, false, false},
		{"OtherTenantsGroup", live, []candidateDoc{group("other-tenant")}, false, false},
		{"Excluded", live, []candidateDoc{user(models.SourceDirectUser, "idp", "me")}, true, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			d := &taskDoc{TaskRow: storekit.TaskRow{MembershipMode: c.mode}, Candidates: c.candidates}
			if c.excluded {
				d.Exclusions = []exclusionDoc{{ParticipantRow: storekit.ParticipantRow{Provider: "idp", ParticipantType: string(models.UserParticipant), ParticipantID: "me"}}}
			}
			if got := eligible(f)(d); got != c.want {
				t.Fatalf("eligible %v, want %v", got, c.want)
			}
		})
	}
}
