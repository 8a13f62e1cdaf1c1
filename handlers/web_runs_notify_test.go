package handlers_test

import (
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	"usertasks/models"
)

// TestWebRunsShowTheNotificationWorker: /manage/runs has a section for the notification
// workers with the tenant's own counts, in English and German.
func TestWebRunsShowTheNotificationWorker(t *testing.T) {
	f := newWebFixture(t)
	runs := []models.WorkerRun{
		{Worker: models.WorkerNotify, Tenant: "t1", Elapsed: time.Minute, Counts: map[string]int{"claimed": 4, "shown": 3, "webhook": 2, "withheld": 1}},
		{Worker: models.WorkerNotify, Tenant: "t2", Elapsed: time.Minute, Counts: map[string]int{"shown": 999}},
	}
	if err := f.store.RecordWorkerRuns(context.Background(), runs); err != nil {
		t.Fatal(err)
	}
	b := f.signIn(t, "boss")
	sec := webText(b.get("/manage/runs").wantStatus(http.StatusOK).one("runs-notify"))
	for _, want := range []string{"Notifications", "3 shown in-app", "2 sent to the webhook", "1 withheld (not visible)", "2 h"} {
		if !strings.Contains(sec, want) {
			t.Errorf("section lacks %q: %s", want, sec)
		}
	}
	if strings.Contains(sec, "999") {
		t.Fatalf("another tenant's counts are shown")
	}
	b.lang = "de"
	if sec := webText(b.get("/manage/runs").one("runs-notify")); !strings.Contains(sec, "Benachrichtigungen") || !strings.Contains(sec, "3 in der App angezeigt") {
		t.Fatalf("German section: %s", sec)
	}
}
