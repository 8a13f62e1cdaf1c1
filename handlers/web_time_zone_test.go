package handlers_test

import (
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"
)

// TestPagesShowTheSessionsTimeZone: once the browser reported its zone, the pages show times
// in it, say so in the footer, and read the manager's due date in it too.
func TestPagesShowTheSessionsTimeZone(t *testing.T) {
	f := newWebFixture(t)
	due := time.Date(2031, 3, 14, 23, 30, 0, 0, time.UTC) // 00:30 on the 15th in Berlin (CET)
	task := f.seed(t, webTaskOpts{due: &due})
	boss := f.signIn(t, "boss")

	page := boss.get("/tasks/" + task.ID).wantStatus(http.StatusOK)
	if got := page.text("time-zone-note"); !strings.Contains(got, "UTC") {
		t.Fatalf("footer before the browser told its zone: %q", got)
	}
	boss.postTimeZone("Europe/Berlin", page.csrf()).wantStatus(http.StatusNoContent)

	page = boss.get("/tasks/" + task.ID).wantStatus(http.StatusOK)
	note := page.one("time-zone-note")
	if got, want := webText(note), "Times are shown in Berlin time (UTC+01:00)."; got != want && got != "Times are shown in Berlin time (UTC+02:00)." {
		t.Fatalf("footer %q, want %q: a label people read, not the zone's id", got, want)
	}
	if got := webAttr(note, "title"); got != "Europe/Berlin" {
		t.Fatalf("footer tooltip %q, want the zone's id", got)
	}
	form := page.one("manage-schedule")
	if got := webFormValues(form).Get("due"); got != "2031-03-15T00:30" {
		t.Fatalf("the schedule form shows the due date as %q, want Berlin's 2031-03-15T00:30", got)
	}
	if !strings.Contains(page.body, "15 Mar 2031") && !strings.Contains(page.body, "Mar 15, 2031") && !strings.Contains(page.body, "15. März 2031") {
		t.Errorf("the page does not show the due day in Berlin (15 March)")
	}

	// A due date typed in Berlin is stored as the instant it means.
	boss.follow(boss.submit(page, "manage-schedule", url.Values{"due": {"2031-07-01T09:00"}}, nil))
	want := time.Date(2031, 7, 1, 7, 0, 0, 0, time.UTC) // CEST is UTC+2
	if got := f.current(t, task.ID).DueAt; got == nil || !got.Equal(want) {
		t.Fatalf("stored due %v, want %v", got, want)
	}
}
