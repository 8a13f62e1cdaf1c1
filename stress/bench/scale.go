package bench

import (
	"context"
	"fmt"
	"sync"
	"time"

	"usertasks/stress"
	"usertasks/stress/seed"
)

// scalePhase: a fresh database seeded at the scale, a server on it (startup to ready), the
// inbox matrix while the mixed load runs in other tenants, the server's peak RSS.
func (r *dialectRun) scalePhase(ctx context.Context) error {
	o, dr := r.o, r.out
	dbURL, drop, err := r.migratedDatabase(ctx, "scale")
	if err != nil {
		return err
	}
	defer drop()
	if err := r.seedScale(ctx, dbURL); err != nil {
		return err
	}
	srv, err := r.startServer(ctx, dbURL)
	if err != nil {
		return err
	}
	defer srv.Stop()
	startup := float64(srv.Startup().Microseconds()) / 1000
	dr.add(Figure{Name: "startup to ready (/readyz 200), loaded database", Unit: "ms", Ours: startup, Target: "≤ 1,000 ms", Met: met(startup <= 1000)})
	rec := &statementRecorder{}
	store, db, err := r.openDB(ctx, dbURL, rec.hear)
	if err != nil {
		return err
	}
	defer store.Close()
	target, err := r.httpTarget(srv)
	if err != nil {
		return err
	}

	load, stopLoad := context.WithCancel(ctx)
	var wg sync.WaitGroup
	var loadErr error
	rounds := 0
	wg.Add(1)
	go func() {
		defer wg.Done()
		for load.Err() == nil {
			_, err := stress.Run(load, "mixed", stress.Options{Tasks: o.Tasks, Writers: o.Writers, Rounds: 1, Target: target})
			if err != nil && load.Err() == nil {
				loadErr = err
				return
			}
			rounds++
		}
	}()
	fmt.Fprintf(r.progress, "bench: %s: the inbox matrix, %d requests a page, under the mixed load\n", r.dialect, o.Reps)
	start := time.Now()
	pages, err := matrix(ctx, o, srv, target, store, db, rec, &matrixProgress{w: r.progress, dialect: r.dialect})
	dr.MatrixSeconds = time.Since(start).Seconds()
	stopLoad()
	wg.Wait()
	if err != nil {
		return err
	}
	if loadErr != nil {
		return fmt.Errorf("the mixed load: %w", loadErr)
	}
	dr.Notes = append(dr.Notes, fmt.Sprintf("the matrix ran beside %d complete rounds of the mixed load (%d tasks, %d clients each)", rounds, o.Tasks, o.Writers))
	dr.addMatrix(pages)
	dr.add(Figure{Name: "peak RSS, loaded database, matrix + mixed load", Unit: "MB", Ours: srv.Memory(), Target: "≤ 150 MB", Met: met(srv.Memory() <= 150)})
	return nil
}

// seedScale loads the matrix's tenant at the scale (stress/seed).
func (r *dialectRun) seedScale(ctx context.Context, dbURL string) error {
	store, db, err := r.openDB(ctx, dbURL, nil)
	if err != nil {
		return err
	}
	defer store.Close()
	fmt.Fprintf(r.progress, "bench: %s: seeding %d open + %d terminal tasks\n", r.dialect, r.o.Open, r.o.Terminal)
	start := time.Now()
	_, err = seed.Load(ctx, db, store.Dialect(), seed.Options{Keys: r.keys, Tenants: []seed.Tenant{{Name: matrixTenant, Open: r.o.Open, Terminal: r.o.Terminal}}})
	if err != nil {
		return fmt.Errorf("seed: %w", err)
	}
	r.out.SeedSeconds = time.Since(start).Seconds()
	return nil
}
