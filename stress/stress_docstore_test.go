package stress_test

import (
	"strings"
	"testing"

	"usertasks/stress"
	"usertasks/testfactory"
)

// TestStoreModesOnDocumentStore runs every mode small against the document store in process:
// the invariants and the store's audit hold, and the report says the raw baseline, SQL's, was
// skipped.
func TestStoreModesOnDocumentStore(t *testing.T) {
	s := testfactory.OpenStore(t, testfactory.Mongo, nil)
	reports := runEveryMode(t, stress.Options{
		Tasks: 6, Writers: 3, Target: stress.NewStoreTarget(s), Inspector: stress.StoreInspector{Store: s}, Store: s, Database: "mongodb",
	})
	for _, r := range reports {
		if r.Dialect != "mongodb" {
			t.Errorf("%s: on %q, want mongodb", r.Mode, r.Dialect)
		}
		audited := false
		for _, c := range r.Checks {
			audited = audited || (c.Name == r.Mode+": audit findings" && c.OK)
		}
		if !audited {
			t.Errorf("%s: no passing audit check in %+v", r.Mode, r.Checks)
		}
		if len(r.Notes) != 1 || !strings.Contains(r.Notes[0], "SQL database only") || r.Figures[0].Baseline != nil {
			t.Errorf("%s: notes %q, baseline %v: want the raw baseline skipped as SQL's", r.Mode, r.Notes, r.Figures[0].Baseline)
		}
	}
}
