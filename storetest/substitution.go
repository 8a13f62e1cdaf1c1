package storetest

import (
	"encoding/json"
	"testing"
	"time"

	"usertasks/models"
	"usertasks/store"
)

// testSubstitution covers substitution on assignment (SPEC 10.5): while an absence is active on
// the database clock, an assignment to the absent user (a manager's assign, a delegation, a
// projection with a direct assignee) goes to the substitute, the event names the absent user as
// substituteFor and task-assigned goes to the substitute; one hop only; nothing changes without
// an active absence, for another tenant's user of the same id, or towards an excluded
// substitute.
func testSubstitution(t *testing.T, h Harness) {
	s, clock := noteStore(t, h)
	boss := queryActor("t1", "boss", true)
	// Both ids carry path, query, space and non-ASCII characters: they are data, never a path.
	const away, sub = "cy/?# ü", hostileID
	absent := func(t *testing.T, tenant, user string, from, until time.Time, substitute string) {
		t.Helper()
		a, err := models.NewAbsence(tenant, models.ParticipantRef{ID: user}, from, until, models.ParticipantRef{ID: substitute, DisplayName: "Sub " + substitute})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := s.PutAbsence(ctx(t), a); err != nil {
			t.Fatalf("put absence: %v", err)
		}
	}
	// awayNow makes user absent on the database clock now, for two hours.
	awayNow := func(t *testing.T, tenant, user, substitute string) {
		t.Helper()
		now := storeNow(t, s)
		absent(t, tenant, user, now.Add(-time.Hour), now.Add(2*time.Hour), substitute)
	}
	available := func(t *testing.T, edit func(p *models.Projection)) models.Task {
		t.Helper()
		task := projectNote(t, s, "t1", func(p *models.Projection) {
			p.CandidateUsers = []models.ParticipantRef{User("t1", "ann")}
			if edit != nil {
				edit(p)
			}
		})
		drain(t, s)
		return task
	}
	assignTo := func(to models.ParticipantRef) lifecycle {
		return func(cur models.Task, cmd models.Command, now time.Time) (models.Change, error) {
			return models.Assign(cur, cmd, to, "", now)
		}
	}

	t.Run("AssignGoesToTheSubstitute", func(t *testing.T) {
		awayNow(t, "t1", away, sub)
		task := available(t, nil)
		got := mustCommand(t, s, task, boss, assignTo(User("t1", away)))
		wantAssignee(t, s, got, sub, "Sub "+sub)
		wantKeys(t, "assigned to the absent user", drain(t, s), "task-assigned user:"+sub+" r2")
		wantSubstituted(t, lastEvent(t, s, got), models.EventAssigned, "assignee", sub, away)
	})

	t.Run("DelegationGoesToTheSubstitute", func(t *testing.T) {
		awayNow(t, "t1", "dora", "eli")
		task := projectNote(t, s, "t1", func(p *models.Projection) { p.Assignee = ptr(User("t1", "ann")) })
		drain(t, s)
		got := mustCommand(t, s, task, queryActor("t1", "ann", false), func(cur models.Task, cmd models.Command, now time.Time) (models.Change, error) {
			return models.Delegate(cur, cmd, User("t1", "dora"), "", now)
		})
		wantAssignee(t, s, got, "eli", "Sub eli")
		if stored := mustGet(t, s, "t1", task.ID); stored.DelegatedBy == nil || stored.DelegatedBy.ID != "ann" {
			t.Fatalf("delegatedBy %v, want ann (the substitute may return it to her)", stored.DelegatedBy)
		}
		wantKeys(t, "delegated to the absent user", drain(t, s), "task-assigned user:eli r2")
		ev := lastEvent(t, s, got)
		wantSubstituted(t, ev, models.EventDelegated, "to", "eli", "dora")
		var meta struct{ DelegatedBy struct{ ID string } }
		if err := json.Unmarshal(ev.Metadata, &meta); err != nil || meta.DelegatedBy.ID != "ann" {
			t.Fatalf("delegated metadata %s keeps delegatedBy ann (%v)", ev.Metadata, err)
		}
	})

	t.Run("ProjectionWithAnAbsentAssignee", func(t *testing.T) {
		awayNow(t, "t1", "finn", "gia")
		task := projectNote(t, s, "t1", func(p *models.Projection) { p.Assignee = ptr(User("t1", "finn")) })
		if task.Assignee == nil || task.Assignee.ID != "gia" {
			t.Fatalf("created for %v, want the substitute gia", task.Assignee)
		}
		wantAssignee(t, s, task, "gia", "Sub gia")
		wantKeys(t, "projected for the absent user", drain(t, s), "task-assigned user:gia r1")
		wantSubstituted(t, lastEvent(t, s, task), models.EventCreated, "", "", "finn")
	})

	t.Run("OneHopOnly", func(t *testing.T) {
		awayNow(t, "t1", "hal", "ivy")
		awayNow(t, "t1", "ivy", "jo") // the substitute is away too: nothing goes further
		task := available(t, nil)
		got := mustCommand(t, s, task, boss, assignTo(User("t1", "hal")))
		wantAssignee(t, s, got, "ivy", "Sub ivy")
		wantKeys(t, "one hop", drain(t, s), "task-assigned user:ivy r2")
		// An assignment to the substitute directly is an assignment to an absent user: one hop.
		other := available(t, nil)
		got = mustCommand(t, s, other, boss, assignTo(User("t1", "ivy")))
		wantAssignee(t, s, got, "jo", "Sub jo")
	})

	t.Run("BoundariesOnTheDatabaseClock", func(t *testing.T) {
		// The absence starts an hour after the database's now and lasts an hour; the clock is
		// moved to 5 s before and at (or just past) each end. The decision's own now is checked,
		// so a slow machine fails loudly instead of testing the wrong side.
		now := storeNow(t, s)
		from, until := now.Add(time.Hour), now.Add(2*time.Hour)
		absent(t, "t1", "kim", from, until, "lou")
		moved := time.Duration(0)
		step := func(t *testing.T, to time.Duration, wantHolder string, before, after time.Time) {
			t.Helper()
			clock.Advance(to - moved)
			moved = to
			task := available(t, nil)
			var at time.Time
			got := mustCommand(t, s, task, boss, func(cur models.Task, cmd models.Command, n time.Time) (models.Change, error) {
				at = n
				return models.Assign(cur, cmd, User("t1", "kim"), "", n)
			})
			if at.Before(before) || !at.Before(after) {
				t.Fatalf("the decision ran at %v, outside [%v, %v): the machine is too slow for this case", at, before, after)
			}
			wantAssignee(t, s, got, wantHolder, "")
			drain(t, s)
		}
		t.Run("JustBeforeFrom", func(t *testing.T) { step(t, time.Hour-5*time.Second, "kim", now, from) })
		t.Run("AtFrom", func(t *testing.T) { step(t, time.Hour, "lou", from, until) })
		t.Run("JustBeforeUntil", func(t *testing.T) { step(t, 2*time.Hour-5*time.Second, "lou", from, until) })
		t.Run("AtUntil", func(t *testing.T) { step(t, 2*time.Hour, "kim", until, until.Add(time.Hour)) })
		clock.Advance(-moved)
	})

	t.Run("NoAbsenceNoChange", func(t *testing.T) {
		task := available(t, nil)
		got := mustCommand(t, s, task, boss, assignTo(User("t1", "max")))
		wantAssignee(t, s, got, "max", "User max")
		wantKeys(t, "assigned", drain(t, s), "task-assigned user:max r2")
		if ev := lastEvent(t, s, got); hasSubstituteFor(t, ev) {
			t.Fatalf("metadata %s names a substitute without an absence", ev.Metadata)
		}
	})

	t.Run("AnotherTenantsAbsenceForwardsNothing", func(t *testing.T) {
		awayNow(t, "t2", "ned", "oz") // ned of t2 is away; ned of t1 is not
		task := available(t, nil)
		got := mustCommand(t, s, task, boss, assignTo(User("t1", "ned")))
		wantAssignee(t, s, got, "ned", "User ned")
	})

	t.Run("ExcludedSubstituteGetsNothing", func(t *testing.T) {
		awayNow(t, "t1", "pia", "quin")
		task := available(t, func(p *models.Projection) { p.ExcludedUsers = []models.ParticipantRef{User("t1", "quin")} })
		got := mustCommand(t, s, task, boss, assignTo(User("t1", "pia")))
		wantAssignee(t, s, got, "pia", "User pia")
	})

	t.Run("AClaimIsOnesOwn", func(t *testing.T) {
		awayNow(t, "t1", "ann", "rex") // ann claims while away: she takes it herself
		defer func() {
			if err := s.DeleteAbsence(ctx(t), "t1", User("t1", "ann")); err != nil {
				t.Fatal(err)
			}
		}()
		task := available(t, nil)
		got := mustCommand(t, s, task, queryActor("t1", "ann", false), func(cur models.Task, cmd models.Command, now time.Time) (models.Change, error) {
			return models.Claim(cur, cmd, now)
		})
		wantAssignee(t, s, got, "ann", "")
	})
}

// wantAssignee checks the task as returned by the command and as stored: Assigned to id, with
// display (when not empty) as the stored display name.
func wantAssignee(t *testing.T, s store.Store, task models.Task, id, display string) {
	t.Helper()
	for what, got := range map[string]models.Task{"returned": task, "stored": mustGet(t, s, task.Tenant, task.ID)} {
		if got.Status != models.StatusAssigned || got.Assignee == nil || got.Assignee.ID != id {
			t.Fatalf("%s: status %s assignee %v, want Assigned to %q", what, got.Status, got.Assignee, id)
		}
		if display != "" && got.Assignee.DisplayName != display {
			t.Fatalf("%s: assignee display %q, want %q", what, got.Assignee.DisplayName, display)
		}
	}
}

// lastEvent is task's newest event.
func lastEvent(t *testing.T, s store.Store, task models.Task) models.Event {
	t.Helper()
	evs := mustEvents(t, s, task.Tenant, task.ID)
	if len(evs) == 0 {
		t.Fatal("no events")
	}
	return evs[len(evs)-1]
}

// wantSubstituted checks an event of typ whose metadata names the substitute under key (when
// not empty) and the absent user as substituteFor.
func wantSubstituted(t *testing.T, ev models.Event, typ models.EventType, key, sub, absent string) {
	t.Helper()
	if ev.Type != typ {
		t.Fatalf("event %s, want %s", ev.Type, typ)
	}
	var meta map[string]json.RawMessage
	if err := json.Unmarshal(ev.Metadata, &meta); err != nil {
		t.Fatalf("metadata %s: %v", ev.Metadata, err)
	}
	var who struct{ ID, Type, Provider string }
	if err := json.Unmarshal(meta["substituteFor"], &who); err != nil || who.ID != absent || who.Type != "user" || who.Provider != models.DefaultProvider {
		t.Fatalf("metadata %s: substituteFor %+v, want user %q", ev.Metadata, who, absent)
	}
	if key == "" {
		return
	}
	if err := json.Unmarshal(meta[key], &who); err != nil || who.ID != sub {
		t.Fatalf("metadata %s: %s %+v, want the substitute %q", ev.Metadata, key, who, sub)
	}
}

func hasSubstituteFor(t *testing.T, ev models.Event) bool {
	t.Helper()
	var meta map[string]json.RawMessage
	if len(ev.Metadata) > 0 {
		if err := json.Unmarshal(ev.Metadata, &meta); err != nil {
			t.Fatalf("metadata %s: %v", ev.Metadata, err)
		}
	}
	_, ok := meta["substituteFor"]
	return ok
}
