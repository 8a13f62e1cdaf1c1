package handlers_test

import (
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"

	"usertasks/handlers"
	"usertasks/handlers/handlerstest"
	"usertasks/invitations"
	"usertasks/models"
	"usertasks/tasks"
	"usertasks/workflow"
)

// TestCrossSiteWritesRefused: a state-changing request that the browser marks
// Sec-Fetch-Site: cross-site and that carries no bearer token is refused with 403 on every route
// — pages, sign-in and sign-out, guest pages, the JSON API and the runtime protocol under
// cookies — before any handler runs; the same request from our own pages, a cross-site
// navigation (GET) and a bearer-token call pass.
func TestCrossSiteWritesRefused(t *testing.T) {
	f := newWebFixture(t)
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	e := handlers.New(handlers.Deps{Store: f.store, Logger: log, Tasks: f.svc, Inbox: tasks.NewInbox(f.store),
		Invitations: invitations.NewIssuer(f.store, invitations.IssuerOptions{Dispatcher: "dev-mailbox"}),
		Runtime:     &handlers.RuntimeDeps{Projector: workflow.NewProjector(f.store, nil), Finalizer: workflow.NewFinalizer(f.store)},
		Guests:      invitations.NewGuests(f.store),
		Web: &handlers.WebDeps{Tasks: f.svc, Sessions: f.sessions, DevUsers: webDevUsers, Logger: log,
			Dashboard: tasks.NewDashboard(f.store, 0), Inbox: tasks.NewInbox(f.store),
			Invitations: invitations.NewIssuer(f.store, invitations.IssuerOptions{Dispatcher: "dev-mailbox"}),
			DevMailbox:  invitations.NewDevMailbox(0)}})
	f.srv.Close()
	f.srv = httptest.NewServer(e)
	t.Cleanup(f.srv.Close)
	task := f.seed(t, webTaskOpts{})
	crossSite := http.Header{"Sec-Fetch-Site": {"cross-site"}, "Sec-Fetch-Mode": {"navigate"}, "Sec-Fetch-Dest": {"document"}}

	t.Run("ErrForbidden_EveryRoute", func(t *testing.T) {
		ann := f.signIn(t, "ann")
		token := ann.get("/inbox").wantStatus(http.StatusOK).csrf()
		checked := 0
		for _, r := range e.Routes() {
			switch r.Method {
			case http.MethodGet, http.MethodHead, http.MethodOptions, echoRouteNotFound:
				continue
			}
			path := routePath(r.Path, task.ID)
			form := url.Values{"csrf_token": {token}, "expectedRevision": {"1"}}
			req, _ := http.NewRequest(r.Method, f.srv.URL+path, strings.NewReader(form.Encode()))
			req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
			req.Header.Set("X-CSRF-Token", token)
			req.Header.Set("Accept", "text/html")
			ann.header = crossSite
			p := ann.do(req)
			ann.header = nil
			if p.status != http.StatusForbidden {
				t.Errorf("%s %s: status %d, want 403", r.Method, path, p.status)
			}
			checked++
		}
		if checked < 20 {
			t.Fatalf("only %d state-changing routes checked", checked)
		}
		if got := f.events(t, task.ID); len(got) != 1 {
			t.Errorf("%d events, want the creation only: a refused request wrote", len(got))
		}
		// Still signed in: the refused sign-out did nothing.
		ann.get("/inbox").wantStatus(http.StatusOK)
	})
	t.Run("ErrForbidden_SignedOutSignOut", func(t *testing.T) {
		b := f.browser(t)
		b.header = crossSite
		if p := b.post("/logout", nil); p.status != http.StatusForbidden {
			t.Fatalf("status %d, want 403", p.status)
		}
	})
	t.Run("ErrForbidden_HTMLPageForBrowsers", func(t *testing.T) {
		ann := f.signIn(t, "ann")
		token := ann.get("/inbox").csrf()
		ann.header = crossSite
		ann.header.Set("Accept", "text/html,application/xhtml+xml")
		defer func() { ann.header = nil }()
		ann.post("/tasks/"+task.ID+"/claim", url.Values{"csrf_token": {token}, "expectedRevision": {"1"}, "operationId": {"op-cross"}}).wantStatus(http.StatusForbidden).one("error-page")
	})
	t.Run("OK_CrossSiteNavigation", func(t *testing.T) {
		ann := f.signIn(t, "ann")
		ann.header = crossSite
		defer func() { ann.header = nil }()
		ann.get("/tasks/" + task.ID).wantStatus(http.StatusOK)
	})
	t.Run("OK_SameOrigin", func(t *testing.T) {
		ann := f.signIn(t, "ann")
		ann.header = http.Header{"Sec-Fetch-Site": {"same-origin"}}
		defer func() { ann.header = nil }()
		p := ann.get("/tasks/" + task.ID).wantStatus(http.StatusOK)
		ann.post("/tasks/"+task.ID+"/claim", url.Values{"csrf_token": {p.csrf()}, "expectedRevision": {"1"}, "operationId": {"op-same-origin"}}).wantStatus(http.StatusSeeOther)
	})
}

// TestCrossSiteBearerCallsPass: a bearer-token call is no ambient credential, so the header
// alone refuses nothing on the JSON API.
func TestCrossSiteBearerCallsPass(t *testing.T) {
	env := handlerstest.SQLite(t, nil)
	ann := handlerstest.Worker("acme", "ann")
	task := env.Task(t, handlerstest.TaskOpts{Candidates: []string{"ann"}})
	env.Do(t, handlerstest.Request{Method: http.MethodPost, Path: handlerstest.TaskPath(task.ID, "claim"), Token: env.Token(t, ann),
		Body:   map[string]any{"expectedRevision": task.Revision, "operationId": "op-" + models.NewID()},
		Header: http.Header{"Sec-Fetch-Site": {"cross-site"}}}).WantStatus(t, http.StatusOK)
}

// echoRouteNotFound is the method echo lists its catch-all routes under.
const echoRouteNotFound = "echo_route_not_found"

// routePath fills a route's parameters: the task id for :id, "x" for the rest.
func routePath(p, taskID string) string {
	parts := strings.Split(p, "/")
	for i, s := range parts {
		switch {
		case s == ":id":
			parts[i] = taskID
		case strings.HasPrefix(s, ":"), s == "*":
			parts[i] = "x"
		}
	}
	return strings.Join(parts, "/")
}
