package storetest

import (
	"encoding/json"
	"slices"
	"testing"
	"time"

	"usertasks/models"
)

// testSubstituteScope covers the substitute's share of the available scope (SPEC 10.5):
// SubstitutedBy names the users whose absence is active on the database clock and names the
// substitute (one hop, per tenant); with them as Actor.StandsInFor the available list also
// holds the tasks where one of them is a direct candidate user (not a group's member, not
// excluded, the substitute not excluded either), and the substitute's claim records
// substituteFor.
func testSubstituteScope(t *testing.T, h Harness) {
	s, clock := noteStore(t, h)
	const sub = "sam/?# ü"
	absent := func(t *testing.T, tenant, user string, from, until time.Time, substitute string) {
		t.Helper()
		a, err := models.NewAbsence(tenant, models.ParticipantRef{ID: user}, from, until, models.ParticipantRef{ID: substitute})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := s.PutAbsence(ctx(t), a); err != nil {
			t.Fatalf("put absence: %v", err)
		}
	}
	now := storeNow(t, s)
	absent(t, "t1", "amy", now.Add(-time.Hour), now.Add(time.Hour), sub)       // active
	absent(t, "t1", hostileID, now.Add(-time.Hour), now.Add(time.Hour), sub)   // active, hostile id
	absent(t, "t1", "bea", now.Add(time.Hour), now.Add(2*time.Hour), sub)      // not yet
	absent(t, "t1", "cal", now.Add(-2*time.Hour), now.Add(-time.Hour), sub)    // over
	absent(t, "t1", "dee", now.Add(-time.Hour), now.Add(time.Hour), "someone") // someone else's
	absent(t, "t2", "eve", now.Add(-time.Hour), now.Add(time.Hour), sub)       // another tenant's
	absent(t, "t1", sub, now.Add(-time.Hour), now.Add(time.Hour), "tom")       // the substitute is away too
	absent(t, "t1", "tom", now.Add(-time.Hour), now.Add(time.Hour), "uma")     // and tom's substitute

	standsIn := func(t *testing.T, tenant, user string) []string {
		t.Helper()
		refs, err := s.SubstitutedBy(ctx(t), tenant, User(tenant, user))
		if err != nil {
			t.Fatal(err)
		}
		var ids []string
		for _, r := range refs {
			if r.Tenant != tenant || r.Type != models.UserParticipant || r.Provider != models.DefaultProvider {
				t.Fatalf("stands in for %+v, want a user of %s", r, tenant)
			}
			ids = append(ids, r.ID)
		}
		return ids
	}
	substitute := func(t *testing.T) models.Actor {
		t.Helper()
		a := queryActor("t1", sub, false)
		refs, err := s.SubstitutedBy(ctx(t), "t1", a.Subject)
		if err != nil {
			t.Fatal(err)
		}
		a.StandsInFor = refs
		return a
	}

	t.Run("SubstitutedBy", func(t *testing.T) {
		want := []string{"amy", hostileID}
		slices.Sort(want)
		if got := standsIn(t, "t1", sub); !slices.Equal(got, want) {
			t.Fatalf("%q stands in for %q, want %q", sub, got, want)
		}
		if got := standsIn(t, "t2", sub); !slices.Equal(got, []string{"eve"}) {
			t.Fatalf("in t2: %q, want eve only", got)
		}
		if got := standsIn(t, "t1", "uma"); !slices.Equal(got, []string{"tom"}) {
			t.Fatalf("uma stands in for %q, want tom only (one hop)", got)
		}
		if got := standsIn(t, "t1", "nobody"); len(got) != 0 {
			t.Fatalf("nobody stands in for %q", got)
		}
	})

	t.Run("SubstitutedByOnTheDatabaseClock", func(t *testing.T) {
		clock.Advance(time.Hour + time.Second) // amy's absence has ended, bea's begun
		defer clock.Advance(-time.Hour - time.Second)
		if got := standsIn(t, "t1", sub); !slices.Equal(got, []string{"bea"}) {
			t.Fatalf("an hour later %q stands in for %q, want bea", sub, got)
		}
	})

	// The tasks: only the ones marked listed belong to the substitute's share.
	project := func(t *testing.T, title string, edit func(p *models.Projection)) models.Task {
		t.Helper()
		return projectNote(t, s, "t1", func(p *models.Projection) {
			p.Title = title
			edit(p)
		})
	}
	amyDirect := project(t, "amy direct", func(p *models.Projection) { p.CandidateUsers = []models.ParticipantRef{User("t1", "amy")} })
	hostileDirect := project(t, "hostile direct", func(p *models.Projection) { p.CandidateUsers = []models.ParticipantRef{User("t1", hostileID)} })
	project(t, "amy's group", func(p *models.Projection) { p.CandidateGroups = []models.ParticipantRef{Group("t1", "amy")} })
	project(t, "amy excluded", func(p *models.Projection) {
		p.CandidateUsers = []models.ParticipantRef{User("t1", "amy")}
		p.CandidateGroups = []models.ParticipantRef{Group("t1", "ops")}
		p.ExcludedUsers = []models.ParticipantRef{User("t1", "amy")}
	})
	project(t, "substitute excluded", func(p *models.Projection) {
		p.CandidateUsers = []models.ParticipantRef{User("t1", "amy")}
		p.ExcludedUsers = []models.ParticipantRef{User("t1", sub)}
	})
	project(t, "bea direct", func(p *models.Projection) { p.CandidateUsers = []models.ParticipantRef{User("t1", "bea")} })
	project(t, "dee direct", func(p *models.Projection) { p.CandidateUsers = []models.ParticipantRef{User("t1", "dee")} })
	project(t, "tom direct", func(p *models.Projection) { p.CandidateUsers = []models.ParticipantRef{User("t1", "tom")} })
	drain(t, s)

	t.Run("AvailableListsTheAbsentUsersDirectCandidacies", func(t *testing.T) {
		items := queryPages(t, s, models.TaskFilter{Tenant: "t1", Scope: models.ScopeAvailable, Actor: substitute(t), Limit: 2})
		var got []string
		for _, it := range items {
			got = append(got, it.Title)
		}
		slices.Sort(got)
		if want := []string{"amy direct", "hostile direct"}; !slices.Equal(got, want) {
			t.Fatalf("the substitute's available list %q, want %q", got, want)
		}
		// Without standing in, the same person lists none of them.
		if items := queryPages(t, s, models.TaskFilter{Tenant: "t1", Scope: models.ScopeAvailable, Actor: queryActor("t1", sub, false), Limit: 10}); len(items) != 0 {
			t.Fatalf("listed %d tasks without standing in", len(items))
		}
		// uma stands in for tom, not for tom's absent colleagues: one hop.
		uma := queryActor("t1", "uma", false)
		uma.StandsInFor = []models.ParticipantRef{User("t1", "tom")}
		items = queryPages(t, s, models.TaskFilter{Tenant: "t1", Scope: models.ScopeAvailable, Actor: uma, Limit: 10})
		if len(items) != 1 || items[0].Title != "tom direct" {
			t.Fatalf("uma's available list %d items, want tom direct only", len(items))
		}
	})

	t.Run("AnotherTenantsStandInListsNothing", func(t *testing.T) {
		a := queryActor("t1", sub, false)
		a.StandsInFor = []models.ParticipantRef{User("t2", "amy")}
		if items := queryPages(t, s, models.TaskFilter{Tenant: "t1", Scope: models.ScopeAvailable, Actor: a, Limit: 10}); len(items) != 0 {
			t.Fatalf("a stand-in for t2's amy listed %d tasks of t1", len(items))
		}
	})

	t.Run("TheSubstituteClaims", func(t *testing.T) {
		got := mustCommand(t, s, amyDirect, substitute(t), func(cur models.Task, cmd models.Command, now time.Time) (models.Change, error) {
			return models.Claim(cur, cmd, now)
		})
		wantAssignee(t, s, got, sub, "")
		ev := lastEvent(t, s, got)
		var meta struct{ SubstituteFor struct{ ID string } }
		if ev.Type != models.EventClaimed || json.Unmarshal(ev.Metadata, &meta) != nil || meta.SubstituteFor.ID != "amy" {
			t.Fatalf("claim event %s metadata %s, want claimed with substituteFor amy", ev.Type, ev.Metadata)
		}
		wantKeys(t, "one's own claim", drain(t, s))
	})

	t.Run("WithoutStandingInTheClaimIsRefused", func(t *testing.T) {
		_, err := command(t, s, hostileDirect, queryActor("t1", sub, false), "", 0, func(cur models.Task, cmd models.Command, now time.Time) (models.Change, error) {
			return models.Claim(cur, cmd, now)
		})
		wantCode(t, err, models.CodeNotFound)
	})
}
