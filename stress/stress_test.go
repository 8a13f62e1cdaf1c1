package stress_test

import (
	"bytes"
	"context"
	"testing"

	"usertasks/repository"
	"usertasks/stress"
	"usertasks/testfactory"
	"usertasks/workers"
	"usertasks/workflow"
)

// TestStoreModes runs every mode small against the store on each dialect and asserts the
// invariants only: the timings are the harness's to report, never a test's to judge.
func TestStoreModes(t *testing.T) {
	testfactory.EachStore(t, nil, func(t *testing.T, s *repository.Store) {
		ctx := context.Background()
		d := workers.NewDispatcher(s, workflow.NewLoopback(s), workers.DispatcherOptions{})
		var progress bytes.Buffer
		reports, err := stress.Run(ctx, "all", stress.Options{
			Tasks: 50, Writers: 4, Target: stress.NewStoreTarget(s), Inspector: stress.StoreInspector{Store: s}, Store: s,
			Drain:    func(ctx context.Context) error { _, err := d.RunOnce(ctx); return err },
			Progress: &progress,
		})
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
			if len(r.Figures) == 0 || r.Figures[0].Baseline == nil {
				t.Errorf("%s: no figure with a raw baseline", r.Mode)
			}
		}
	})
}
