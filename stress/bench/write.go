package bench

import (
	"context"
	"fmt"
	"os/exec"
	"path/filepath"
	"strings"

	"usertasks/stress"
)

// writePhase: a fresh database, a server, the burst, claim and mixed modes over HTTP with
// the raw baseline, a CPU profile of the server meanwhile, its peak RSS.
func (r *dialectRun) writePhase(ctx context.Context) error {
	o, dr := r.o, r.out
	dbURL, drop, err := r.migratedDatabase(ctx, "write")
	if err != nil {
		return err
	}
	defer drop()
	srv, err := r.startServer(ctx, dbURL)
	if err != nil {
		return err
	}
	defer srv.Stop()
	store, err := r.openStore(ctx, dbURL, nil)
	if err != nil {
		return err
	}
	defer store.Close()
	target, err := r.httpTarget(srv)
	if err != nil {
		return err
	}
	profiles := map[string]string{}
	for _, mode := range writeModes {
		fmt.Fprintf(r.progress, "bench: %s: %s, %d tasks × %d clients over HTTP\n", r.dialect, mode, o.Tasks, o.Writers)
		profile := filepath.Join(o.Dir, "cpu-"+r.dialect+"-"+mode+".pprof")
		profiled := make(chan error, 1)
		go func() { profiled <- srv.cpuProfile(ctx, o.ProfileSeconds, profile) }()
		reports, err := stress.Run(ctx, mode, stress.Options{Tasks: o.Tasks, Writers: o.Writers, Rounds: 1, Target: target, Store: store, SQL: store})
		if err != nil {
			return err
		}
		dr.Stress = append(dr.Stress, reports...)
		if err := <-profiled; err != nil {
			dr.Notes = append(dr.Notes, mode+": no CPU profile: "+err.Error())
		} else {
			profiles[mode] = profile
		}
	}
	// The server has nothing more to do; the same modes run against the store in this process,
	// so each write figure can be split into what HTTP adds and what the store costs.
	if err := r.storePhase(ctx); err != nil {
		return fmt.Errorf("store-direct: %w", err)
	}
	worst := dr.addWriteFigures()
	dr.add(Figure{Name: "peak RSS, write phase", Unit: "MB", Ours: srv.Memory(), Target: "≤ 150 MB", Met: met(srv.Memory() <= 150)})
	if profiles[worst] == "" {
		return nil
	}
	top, err := exec.CommandContext(ctx, "go", "tool", "pprof", "-top", "-nodecount=25", profiles[worst]).Output()
	if err != nil {
		dr.Notes = append(dr.Notes, "go tool pprof failed: "+err.Error())
		return nil
	}
	dr.ProfileMode, dr.ProfileSeconds, dr.Profile = worst, o.ProfileSeconds, profileTop(string(top))
	return nil
}

// storePhase runs the write modes against repository.Store in this process (stress's store
// target, the service and projector the handlers call) on a fresh database of the dialect, so
// the HTTP phase's tasks and its server's runtime never meet these. The raw baselines ran in
// the HTTP phase and are not repeated.
func (r *dialectRun) storePhase(ctx context.Context) error {
	dbURL, drop, err := r.migratedDatabase(ctx, "store")
	if err != nil {
		return err
	}
	defer drop()
	store, err := r.openStore(ctx, dbURL, nil)
	if err != nil {
		return err
	}
	defer store.Close()
	for _, mode := range writeModes {
		fmt.Fprintf(r.progress, "bench: %s: %s, %d tasks × %d clients against the store in process\n", r.dialect, mode, r.o.Tasks, r.o.Writers)
		reports, err := stress.Run(ctx, mode, stress.Options{Tasks: r.o.Tasks, Writers: r.o.Writers, Rounds: 1,
			Target: stress.NewStoreTarget(store), Inspector: stress.StoreInspector{Store: store}, Store: store, SQL: store, NoBaseline: true})
		if err != nil {
			return err
		}
		r.out.StoreStress = append(r.out.StoreStress, reports...)
	}
	return nil
}

// profileTop keeps pprof's header lines and table, without the file and build lines.
func profileTop(out string) []string {
	var lines []string
	for _, l := range strings.Split(strings.TrimRight(out, "\n"), "\n") {
		if strings.HasPrefix(l, "File:") || strings.HasPrefix(l, "Build ID:") || strings.HasPrefix(l, "Type:") || strings.HasPrefix(l, "Time:") {
			continue
		}
		lines = append(lines, l)
	}
	return lines
}
