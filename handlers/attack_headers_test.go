package handlers_test

import (
	"context"
	"net/http"
	"strings"
	"testing"

	"usertasks/handlers/handlerstest"
)

// TestAttackSecurityHeaders: every answer — each GET route of the route table as a signed-in
// manager (pages) and with a bearer token (API), the refusals (401, 403, 404 of unknown paths,
// 405, 413) — forbids sniffing and framing, has a CSP and a referrer policy. HSTS is sent on
// HTTPS (here: a proxy saying so) and not on plain HTTP.
func TestAttackSecurityHeaders(t *testing.T) {
	f := newAttackFixture(t)
	task := f.task(t, "t1", nil)
	b := f.signInAs(t, "t1", "boss")
	token := f.token(t, handlerstest.Manager("t1", "boss"))
	params := map[string]string{"id": task.ID, "invitationId": "unknown", "token": "unknown"}

	check := func(t *testing.T, what string, h http.Header) {
		t.Helper()
		if got := h.Get("X-Content-Type-Options"); got != "nosniff" {
			t.Errorf("%s: X-Content-Type-Options = %q", what, got)
		}
		csp := h.Get("Content-Security-Policy")
		if !strings.Contains(csp, "frame-ancestors 'none'") || h.Get("X-Frame-Options") != "DENY" {
			t.Errorf("%s: framing not forbidden (CSP %q, X-Frame-Options %q)", what, csp, h.Get("X-Frame-Options"))
		}
		if strings.Contains(csp, "unsafe-inline") || strings.Contains(csp, "*") {
			t.Errorf("%s: CSP %q", what, csp)
		}
		if rp := h.Get("Referrer-Policy"); rp != "no-referrer" && rp != "same-origin" {
			t.Errorf("%s: Referrer-Policy = %q", what, rp)
		}
		if hsts := h.Get("Strict-Transport-Security"); hsts != "" {
			t.Errorf("%s: HSTS %q on plain HTTP", what, hsts)
		}
	}
	headersOf := func(t *testing.T, req *http.Request) (int, http.Header) {
		t.Helper()
		ctx, cancel := context.WithCancel(req.Context())
		defer cancel() // the stream never ends by itself: its headers are enough
		res, err := noRedirects.Do(req.WithContext(ctx))
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		return res.StatusCode, res.Header
	}

	seen := 0
	for _, r := range f.routes() {
		if r.Method != http.MethodGet {
			continue
		}
		seen++
		path := fillRoute(r.Path, params)
		if strings.HasSuffix(r.Path, "/access") {
			path += "?participant=user:ann"
		}
		if strings.HasPrefix(r.Path, "/api/") {
			req, _ := http.NewRequest(http.MethodGet, f.srv.URL+path, nil)
			req.Header.Set("Authorization", "Bearer "+token)
			status, h := headersOf(t, req)
			check(t, r.Path+" (bearer, "+http.StatusText(status)+")", h)
			continue
		}
		req, _ := http.NewRequest(http.MethodGet, f.srv.URL+path, nil)
		for _, c := range b.client.Jar.Cookies(req.URL) {
			req.AddCookie(c)
		}
		status, h := headersOf(t, req)
		check(t, r.Path+" (page, "+http.StatusText(status)+")", h)
	}
	if seen < 25 {
		t.Fatalf("only %d GET routes", seen)
	}

	for name, req := range map[string]*http.Request{
		"Unauthenticated":      mustRequest(t, http.MethodGet, f.srv.URL+"/api/v1/user-tasks", "", nil),
		"Forbidden":            mustRequest(t, http.MethodGet, f.srv.URL+"/api/v1/user-tasks?scope=all", f.token(t, handlerstest.Worker("t1", "ann")), nil),
		"UnknownAPIPath":       mustRequest(t, http.MethodGet, f.srv.URL+"/api/v1/nothing-here", "", nil),
		"UnknownPath":          mustRequest(t, http.MethodGet, f.srv.URL+"/nothing-here", "", nil),
		"UnknownPathBrowser":   mustRequest(t, http.MethodGet, f.srv.URL+"/nothing-here", "", http.Header{"Accept": {"text/html"}}),
		"WrongMethod":          mustRequest(t, http.MethodPut, f.srv.URL+"/api/v1/user-tasks", token, nil),
		"BodyTooLarge":         mustRequest(t, http.MethodPost, f.srv.URL+"/api/v1/user-tasks/bulk", token, nil, strings.Repeat("x", 2<<20)),
		"PageOfAnUnknownTask":  mustRequest(t, http.MethodGet, f.srv.URL+"/tasks/unknown", "", http.Header{"Accept": {"text/html"}}),
		"GuestPageUnknownLink": mustRequest(t, http.MethodGet, f.srv.URL+"/guest?t=unknown", "", nil),
	} {
		t.Run(name, func(t *testing.T) {
			status, h := headersOf(t, req)
			if status < 300 && name != "GuestPageUnknownLink" {
				t.Errorf("status %d, want a refusal", status)
			}
			check(t, name, h)
		})
	}

	t.Run("HSTSOverHTTPS", func(t *testing.T) {
		for _, path := range []string{"/api/v1/user-tasks", "/login", "/nothing-here"} {
			req := mustRequest(t, http.MethodGet, f.srv.URL+path, "", http.Header{"X-Forwarded-Proto": {"https"}})
			if _, h := headersOf(t, req); !strings.HasPrefix(h.Get("Strict-Transport-Security"), "max-age=") {
				t.Errorf("%s over HTTPS: Strict-Transport-Security = %q", path, h.Get("Strict-Transport-Security"))
			}
		}
	})
}

// noRedirects is a client that shows redirects rather than following them.
var noRedirects = &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}

// mustRequest builds a request with an optional bearer token, headers and body.
func mustRequest(t *testing.T, method, url, token string, h http.Header, body ...string) *http.Request {
	t.Helper()
	req, err := http.NewRequest(method, url, strings.NewReader(strings.Join(body, "")))
	if err != nil {
		t.Fatal(err)
	}
	for k, v := range h {
		req.Header[k] = v
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	if len(body) > 0 {
		req.Header.Set("Content-Type", "application/json")
	}
	return req
}
