package handlers_test

import (
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"usertasks/demo"
	"usertasks/handlers"
	"usertasks/invitations"
	"usertasks/tasks"
	"usertasks/testfactory"
	"usertasks/websession"
)

// TestLoginLabelsTheDemoUsers: the dev login lists the demo's people, each labelled by what
// signing in as them shows, in the page's language, the snapshot-group member the README
// promises included.
func TestLoginLabelsTheDemoUsers(t *testing.T) {
	st := testfactory.OpenStore(t, testfactory.SQLite, nil)
	sessions, err := websession.New(websession.Config{Store: st, Secrets: [][]byte{[]byte(strings.Repeat("s", 32))}})
	if err != nil {
		t.Fatal(err)
	}
	var users []handlers.DevUser
	for _, u := range demo.Users {
		users = append(users, handlers.DevUser(u))
	}
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	e := handlers.New(handlers.Deps{Store: st, Logger: log, Web: &handlers.WebDeps{Tasks: tasks.New(st, tasks.Options{}), Sessions: sessions,
		DevUsers: users, Logger: log, Dashboard: tasks.NewDashboard(st, 0), Inbox: tasks.NewInbox(st),
		Invitations: invitations.NewIssuer(st, invitations.IssuerOptions{Dispatcher: "dev-mailbox"})}})
	srv := httptest.NewServer(e)
	t.Cleanup(srv.Close)
	f := &webFixture{store: st, srv: srv, sessions: sessions, now: time.Now()}

	for lang, snapshot := range map[string]string{"en": "snapshot group", "de": "Momentaufnahme-Gruppe"} {
		b := f.browser(t)
		b.lang = lang
		p := b.get("/login").wantStatus(http.StatusOK)
		listed := p.all("dev-user")
		labels := p.all("dev-user-shows")
		if len(listed) != len(demo.Users) || len(labels) != len(demo.Users) {
			t.Fatalf("%s: %d demo users listed with %d labels, want %d each", lang, len(listed), len(labels), len(demo.Users))
		}
		seen := map[string]bool{}
		for _, li := range listed {
			id, text := webAttr(li, "data-user-id"), webText(li)
			for _, l := range labels {
				if strings.Contains(text, webText(l)) {
					if seen[webText(l)] {
						t.Errorf("%s: two users share the label %q", lang, webText(l))
					}
					seen[webText(l)] = true
				}
			}
			if id == "dan" && !strings.Contains(text, snapshot) {
				t.Errorf("%s: dan, the snapshot-group member, is labelled %q", lang, text)
			}
		}
	}
}
