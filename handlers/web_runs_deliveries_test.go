package handlers_test

import (
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	"usertasks/models"
)

// TestWebRunsShowTheDeliveryWorker: /manage/runs has a section for the invitation delivery
// worker with its own tenant's counts, in English and German.
func TestWebRunsShowTheDeliveryWorker(t *testing.T) {
	f := newWebFixture(t)
	runs := []models.WorkerRun{
		{Worker: models.WorkerDeliveries, Tenant: "t1", Elapsed: time.Minute, Counts: map[string]int{"claimed": 3, "sent": 2, "abandoned": 1}},
		{Worker: models.WorkerDeliveries, Tenant: "t2", Elapsed: time.Minute, Counts: map[string]int{"sent": 999}},
	}
	if err := f.store.RecordWorkerRuns(context.Background(), runs); err != nil {
		t.Fatal(err)
	}
	b := f.signIn(t, "boss")
	sec := webText(b.get("/manage/runs").wantStatus(http.StatusOK).one("runs-invitation-delivery"))
	for _, want := range []string{"Invitation delivery", "2 sent", "1 abandoned", "15 s"} {
		if !strings.Contains(sec, want) {
			t.Errorf("section lacks %q: %s", want, sec)
		}
	}
	if strings.Contains(sec, "999") {
		t.Fatalf("another tenant's counts are shown")
	}
	b.lang = "de"
	if sec := webText(b.get("/manage/runs").one("runs-invitation-delivery")); !strings.Contains(sec, "Einladungszustellung") || !strings.Contains(sec, "2 gesendet") {
		t.Fatalf("German section: %s", sec)
	}
	f.signIn(t, "ann").get("/manage/runs").wantStatus(http.StatusForbidden)
}
