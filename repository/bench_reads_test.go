package repository_test

import (
	"context"
	"fmt"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"usertasks/models"
	"usertasks/repository"
	"usertasks/testfactory"
)

// BenchmarkClaimPayload claims tasks carrying 16 KiB of instructions and 16 KiB of task data
// from 8 goroutines, loading the whole row (a Mutate without a hint, as every claim did before
// issue 13) and only the columns a claim reads (models.ReadsForTransition, as the service
// claims). Both variants run in the same process one after the other, so their ratio holds on a
// busy machine; compare B/op and allocs/op as well as tx/s. It reports; nothing asserts.
//
//	go test ./repository/ -run '^$' -bench ClaimPayload -benchtime 300x -benchmem
func BenchmarkClaimPayload(b *testing.B) {
	instructions := strings.Repeat("Check the invoice line by line. ", 512)
	data := fmt.Sprintf(`{"note":%q}`, strings.Repeat("x", 16<<10))
	benchStores(b, func(b *testing.B, s *repository.Store) {
		for _, v := range []struct {
			name  string
			reads models.ProtectedParts
		}{{"whole-row", models.ReadsAllProtected}, {"claim-columns", models.ReadsForTransition}} {
			b.Run(v.name, func(b *testing.B) {
				ctx := context.Background()
				tasks := make([]models.Task, b.N)
				for i := range tasks {
					p := testfactory.Projection(&testfactory.TaskOpts{Tenant: benchTenant, Candidates: []string{"ann"}, Instructions: instructions, Data: data})
					key := models.MaterializationKey(p.Tenant, p.Workflow.InstanceID, p.Workflow.ActivityInstanceID)
					t, _, err := s.Create(ctx, p.Tenant, key, p.Workflow.BookmarkID, func(now time.Time) (models.Change, error) {
						return models.Project(p, now)
					})
					if err != nil {
						b.Fatal(err)
					}
					tasks[i] = t
				}
				ann := testfactory.Person(benchTenant, "ann")
				claimCtx := models.ReadingProtected(ctx, v.reads)
				var next atomic.Int64
				b.SetParallelism(4)
				b.ResetTimer()
				b.RunParallel(func(pb *testing.PB) {
					for pb.Next() {
						t := tasks[next.Add(1)-1]
						_, err := s.Mutate(claimCtx, benchTenant, t.ID, "", func(now time.Time, cur models.Task, prior *models.Operation) (models.Change, error) {
							return models.Claim(cur, models.Command{OperationID: models.NewID(), ExpectedRevision: cur.Revision, Actor: ann, Prior: prior}, now)
						})
						if err != nil {
							b.Error(err)
							return
						}
					}
				})
				b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "tx/s")
			})
		}
	})
}
