package storekit

import (
	"fmt"
	"slices"
	"testing"

	"usertasks/models"
)

// The stand-ins a list binds: users of the queried tenant only, sorted per provider, at most
// models.MaxStandsInFor.
func TestActorStandIns(t *testing.T) {
	user := func(tenant, provider, id string) models.ParticipantRef {
		return models.ParticipantRef{Tenant: tenant, Provider: provider, Type: models.UserParticipant, ID: id}
	}
	a := models.Actor{Tenant: "t1", StandsInFor: []models.ParticipantRef{
		user("t1", "default", "zoe"), user("t1", "default", "amy/?# ü"), user("t2", "default", "eve"), user("t1", "corp", "bo"),
		{Tenant: "t1", Provider: "default", Type: models.GroupParticipant, ID: "sales"}, user("t1", "default", ""),
	}}
	got := ActorStandIns(models.TaskFilter{Tenant: "t1", Actor: a})
	if want := []string{"amy/?# ü", "zoe"}; !slices.Equal(got["default"], want) || !slices.Equal(got["corp"], []string{"bo"}) || len(got) != 2 {
		t.Fatalf("stand-ins %v, want default %q and corp [bo]", got, want)
	}

	a.StandsInFor = nil
	for i := 0; i < models.MaxStandsInFor+5; i++ {
		a.StandsInFor = append(a.StandsInFor, user("t1", "default", fmt.Sprintf("u%03d", i)))
	}
	if got := ActorStandIns(models.TaskFilter{Tenant: "t1", Actor: a}); len(got["default"]) != models.MaxStandsInFor {
		t.Fatalf("%d stand-ins bound, want at most %d", len(got["default"]), models.MaxStandsInFor)
	}
}
