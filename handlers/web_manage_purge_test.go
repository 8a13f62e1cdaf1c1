package handlers_test

import (
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	"usertasks/models"
)

// TestWebManageLastPurge: the dashboard shows the tenant's last retention purge with its counts
// (never another tenant's), and the runs page has a purge section, in English and German.
func TestWebManageLastPurge(t *testing.T) {
	f := newWebFixture(t)
	ctx := context.Background()
	f.seed(t, webTaskOpts{title: "Something open"})
	runs := []models.WorkerRun{
		{Worker: models.WorkerPurge, Tenant: "t1", Elapsed: 2 * time.Second,
			Counts: models.PurgeCounts{Tasks: 12, Events: 40, GuestSessions: 3}.Map()},
		{Worker: models.WorkerPurge, Tenant: "t2", Elapsed: time.Second, Counts: models.PurgeCounts{Tasks: 9876}.Map()},
	}
	if err := f.store.RecordWorkerRuns(ctx, runs); err != nil {
		t.Fatal(err)
	}

	t.Run("ErrForbiddenForNonManagers", func(t *testing.T) {
		p := f.signIn(t, "ann").get("/manage/runs").wantStatus(http.StatusForbidden)
		if strings.Contains(p.body, "9876") || strings.Contains(p.body, "Retention purge") {
			t.Fatal("a non-manager sees purge runs")
		}
	})
	t.Run("OK", func(t *testing.T) {
		b := f.signIn(t, "boss")
		p := b.get("/manage").wantStatus(http.StatusOK)
		row := p.one("run-purge")
		if got := webText(row); !strings.Contains(got, "Retention purge") || !strings.Contains(got, "12 tasks") ||
			!strings.Contains(got, "3 guest sessions") || strings.Contains(p.body, "9876") {
			t.Fatalf("last purge %q: want t1's counts only", got)
		}
		runsPage := b.get("/manage/runs").wantStatus(http.StatusOK)
		if got := webText(runsPage.one("runs-purge")); !strings.Contains(got, "40 events") || strings.Contains(runsPage.body, "9876") {
			t.Fatalf("purge section %q", got)
		}
	})
	t.Run("German", func(t *testing.T) {
		b := f.signIn(t, "boss")
		b.lang = "de"
		p := b.get("/manage").wantStatus(http.StatusOK)
		if got := webText(p.one("run-purge")); !strings.Contains(got, "Aufbewahrungs-Bereinigung") || !strings.Contains(got, "12 Aufgaben") {
			t.Fatalf("German last purge %q", got)
		}
	})
}
