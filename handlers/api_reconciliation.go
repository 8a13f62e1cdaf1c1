package handlers

import (
	"net/http"
	"time"

	"github.com/labstack/echo/v4"

	"usertasks/models"
	"usertasks/workers"
)

// ReconciliationReport gives the last reconciliation run of this node; *workers.Reconciler
// satisfies it.
type ReconciliationReport interface {
	LastRun() (workers.ReconcileRun, bool)
}

// reconciliationJSON is the caller's tenant's share of the last run.
type reconciliationJSON struct {
	LastRun *reconciliationRunJSON `json:"lastRun"`
}

type reconciliationRunJSON struct {
	StartedAt  string `json:"startedAt"`
	FinishedAt string `json:"finishedAt"`
	workers.ReconcileCounts
	Skipped bool   `json:"skipped"`
	Error   string `json:"error,omitempty"`
}

// getReconciliation handles GET /api/v1/reconciliation: managers see their tenant's counts of
// the last run this node made ({recreated, requeued, finalized, ambiguous}); lastRun is null
// before the first run.
func getReconciliation(r ReconciliationReport) echo.HandlerFunc {
	return func(c echo.Context) error {
		a := actorOf(c)
		if !a.Manager || !models.ActorCan(a, models.PermSupervise) {
			return models.ErrForbidden
		}
		out := reconciliationJSON{}
		if run, ok := r.LastRun(); ok {
			t := run.Tenants[a.Tenant]
			out.LastRun = &reconciliationRunJSON{
				StartedAt: run.StartedAt.UTC().Format(time.RFC3339Nano), FinishedAt: run.FinishedAt.UTC().Format(time.RFC3339Nano),
				ReconcileCounts: t.ReconcileCounts, Skipped: t.Skipped, Error: t.Error,
			}
		}
		return c.JSON(http.StatusOK, out)
	}
}
