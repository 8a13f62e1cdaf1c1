package stress_test

import (
	"bytes"
	"context"
	"errors"
	"slices"
	"strings"
	"testing"

	"usertasks/models"
	"usertasks/repository"
	"usertasks/stress"
	"usertasks/testfactory"
)

// TestStoreModes runs every mode small against the store on each dialect and asserts the
// invariants only: the timings are the harness's to report, never a test's to judge.
func TestStoreModes(t *testing.T) {
	testfactory.EachSQL(t, nil, func(t *testing.T, s *repository.Store) {
		reports := runEveryMode(t, stress.Options{
			Tasks: 50, Writers: 4, Target: stress.NewStoreTarget(s), Inspector: stress.StoreInspector{Store: s}, Store: s, SQL: s,
		})
		for _, r := range reports {
			if len(r.Figures) == 0 || r.Figures[0].Baseline == nil {
				t.Errorf("%s: no figure with a raw baseline", r.Mode)
			}
		}
	})
}

// runEveryMode runs "all" with o, logs each report and checks that every mode ran and its
// invariants held.
func runEveryMode(t *testing.T, o stress.Options) []stress.Report {
	t.Helper()
	var progress bytes.Buffer
	o.Progress = &progress
	reports, err := stress.Run(context.Background(), "all", o)
	if err != nil {
		t.Fatalf("run: %v\n%s", err, progress.String())
	}
	if got, want := len(reports), len(stress.Modes); got != want {
		t.Fatalf("got %d reports, want %d", got, want)
	}
	for _, r := range reports {
		var out bytes.Buffer
		r.Print(&out)
		t.Log(out.String())
		if !r.OK {
			t.Errorf("%s: invariants failed", r.Mode)
		}
	}
	return reports
}

// boastingTarget reports every lost claim as applied: the harness must catch the lie.
type boastingTarget struct{ *stress.StoreTarget }

func (b boastingTarget) Claim(ctx context.Context, a models.Actor, id string, revision int, op string) (stress.Item, stress.Outcome, error) {
	it, o, err := b.StoreTarget.Claim(ctx, a, id, revision, op)
	if o == stress.Conflict {
		return it, stress.Applied, nil
	}
	return it, o, err
}

func TestChecksCatchAMiscount(t *testing.T) {
	s := testfactory.OpenSQL(t, testfactory.Database(t, testfactory.SQLite), nil)
	reports, err := stress.Run(context.Background(), "claim", stress.Options{
		Tasks: 5, Writers: 3, Target: boastingTarget{stress.NewStoreTarget(s)}, Inspector: stress.StoreInspector{Store: s},
	})
	if err != nil {
		t.Fatal(err)
	}
	r := reports[0]
	if r.OK {
		t.Fatal("the report is OK although every lost claim was counted as applied")
	}
	var failed []string
	for _, c := range r.Checks {
		if !c.OK {
			failed = append(failed, c.Name+": want "+c.Want+", got "+c.Got)
		}
	}
	if want := []string{"claim: applied: want 5, got 15", "claim: conflicts: want 10, got 0"}; !slices.Equal(failed, want) {
		t.Fatalf("failed checks %q, want %q", failed, want)
	}
	if len(r.Notes) == 0 || r.Figures[0].Baseline != nil {
		t.Fatalf("without a store the report must say the audit and baseline were skipped: %+v", r)
	}
}

func TestRoundsUseFreshTenants(t *testing.T) {
	s := testfactory.OpenSQL(t, testfactory.Database(t, testfactory.SQLite), nil)
	reports, err := stress.Run(context.Background(), "burst", stress.Options{
		Tasks: 4, Writers: 2, Rounds: 3, Target: stress.NewStoreTarget(s), Inspector: stress.StoreInspector{Store: s}, Store: s, SQL: s,
	})
	if err != nil {
		t.Fatal(err)
	}
	r := reports[0]
	if !r.OK || r.Figures[0].Ops != 3*4*2 || r.Figures[0].Applied != 3*4 {
		t.Fatalf("three rounds of 4 bookmarks × 2 deliveries: ok %v, %+v", r.OK, r.Figures[0])
	}
	tenants, err := s.Tenants(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	rounds := slices.DeleteFunc(slices.Clone(tenants), func(t string) bool { return strings.HasSuffix(t, "-full") })
	if len(rounds) != 3 || len(tenants) != 6 {
		t.Fatalf("tenants %q, want one per round and one per round's raw full shape", tenants)
	}
}

func TestRunRefusesAnUnknownMode(t *testing.T) {
	s := testfactory.OpenSQL(t, testfactory.Database(t, testfactory.SQLite), nil)
	_, err := stress.Run(context.Background(), "cas\x00", stress.Options{Target: stress.NewStoreTarget(s), Inspector: stress.StoreInspector{Store: s}})
	if !errors.Is(err, stress.ErrUnknownMode) {
		t.Fatalf("err %v, want ErrUnknownMode", err)
	}
}
