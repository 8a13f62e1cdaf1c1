package repository_test

import (
	"context"
	"sync/atomic"
	"testing"
	"time"

	"usertasks/models"
	"usertasks/repository"
	"usertasks/testfactory"
)

// The write-path benchmarks (issue 13): 8 goroutines (RunParallel × 4 on 2 cores) against one
// tenant of a fresh store per dialect, PostgreSQL and MariaDB when their URLs are set. They
// report; nothing asserts a time. Run them short, e.g.
//
//	go test ./repository/ -run '^$' -bench 'Create|ClaimComplete' -benchtime 300x

const benchTenant = "bench"

func benchStores(b *testing.B, fn func(b *testing.B, s *repository.Store)) {
	for _, d := range testfactory.SQLProviders {
		b.Run(d.Name(), func(b *testing.B) { fn(b, testfactory.OpenSQL(b, testfactory.Database(b, d), nil)) })
	}
}

func benchCreate(ctx context.Context, s *repository.Store) (models.Task, error) {
	p := testfactory.Projection(&testfactory.TaskOpts{Tenant: benchTenant, Candidates: []string{"ann", "bob"}, Groups: []string{"clerks"}})
	key := models.MaterializationKey(p.Tenant, p.Workflow.InstanceID, p.Workflow.ActivityInstanceID)
	t, _, err := s.Create(ctx, p.Tenant, key, p.Workflow.BookmarkID, func(now time.Time) (models.Change, error) {
		return models.Project(p, now)
	})
	return t, err
}

// BenchmarkCreate projects tasks of one tenant from 8 goroutines.
func BenchmarkCreate(b *testing.B) {
	benchStores(b, func(b *testing.B, s *repository.Store) {
		ctx := context.Background()
		if _, err := benchCreate(ctx, s); err != nil { // the tenant's counter rows exist
			b.Fatal(err)
		}
		b.SetParallelism(4)
		b.ResetTimer()
		b.RunParallel(func(pb *testing.PB) {
			for pb.Next() {
				if _, err := benchCreate(ctx, s); err != nil {
					b.Error(err)
					return
				}
			}
		})
		b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "tx/s")
	})
}

// BenchmarkClaimComplete claims and completes (to Completing) prepared tasks from 8
// goroutines; one op is both commands (two transactions).
func BenchmarkClaimComplete(b *testing.B) {
	benchStores(b, func(b *testing.B, s *repository.Store) {
		ctx := context.Background()
		tasks := make([]models.Task, b.N)
		for i := range tasks {
			t, err := benchCreate(ctx, s)
			if err != nil {
				b.Fatal(err)
			}
			tasks[i] = t
		}
		ann := testfactory.Person(benchTenant, "ann")
		cmd := func(cur models.Task, prior *models.Operation) models.Command {
			return models.Command{OperationID: models.NewID(), ExpectedRevision: cur.Revision, Actor: ann, Prior: prior}
		}
		var next atomic.Int64
		b.SetParallelism(4)
		b.ResetTimer()
		b.RunParallel(func(pb *testing.PB) {
			for pb.Next() {
				t := tasks[next.Add(1)-1]
				_, err := s.Mutate(ctx, benchTenant, t.ID, "", func(now time.Time, cur models.Task, prior *models.Operation) (models.Change, error) {
					return models.Claim(cur, cmd(cur, prior), now)
				})
				if err == nil {
					_, err = s.Mutate(ctx, benchTenant, t.ID, "", func(now time.Time, cur models.Task, prior *models.Operation) (models.Change, error) {
						return models.Complete(cur, cmd(cur, prior), models.ActionComplete, nil, now)
					})
				}
				if err != nil {
					b.Error(err)
					return
				}
			}
		})
		b.ReportMetric(2*float64(b.N)/b.Elapsed().Seconds(), "tx/s")
	})
}
