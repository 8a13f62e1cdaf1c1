package handlers_test

import (
	"bytes"
	"net/http"
	"testing"

	"usertasks/handlers/handlerstest"
)

// TestAuthentication: every JSON API route but the OpenAPI document needs a valid bearer
// token; every refusal is the same 401 problem.
func TestAuthentication(t *testing.T) {
	env := handlerstest.SQLite(t, nil)
	user := handlerstest.Worker("acme", "ann")
	caps := "/api/v1/user-tasks/capabilities"

	t.Run("OK", func(t *testing.T) {
		resp := env.Do(t, handlerstest.Request{Method: http.MethodGet, Path: caps, Token: env.Token(t, user)})
		resp.WantStatus(t, http.StatusOK)
		if got, want := resp.Header.Get("Cache-Control"), "no-store"; got != want {
			t.Errorf("Cache-Control = %q, want %q", got, want)
		}
	})

	refusals := map[string]handlerstest.Request{
		"Missing":     {Method: http.MethodGet, Path: caps, Contract: handlerstest.Breaks},
		"Garbage":     {Method: http.MethodGet, Path: caps, Token: "garbage"},
		"Expired":     {Method: http.MethodGet, Path: caps, Token: env.ExpiredToken(t, user)},
		"ForeignKey":  {Method: http.MethodGet, Path: caps, Token: handlerstest.TokenWithSecret(t, []byte("another secret of at least 32 bytes!"), user)},
		"EmptyBearer": {Method: http.MethodGet, Path: caps, Header: http.Header{"Authorization": {"Bearer "}}},
		"NotBearer":   {Method: http.MethodGet, Path: caps, Header: http.Header{"Authorization": {"Basic YW5uOnNlY3JldA=="}}, Contract: handlerstest.Breaks},
		"Command":     {Method: http.MethodPost, Path: handlerstest.TaskPath("0190b5d4-0000-7000-8000-000000000000", "claim"), Body: map[string]any{"expectedRevision": 1}, Contract: handlerstest.Breaks},
	}
	var first []byte
	for name, req := range refusals {
		t.Run("ErrUnauthenticated/"+name, func(t *testing.T) {
			resp := env.Do(t, req)
			resp.WantProblem(t, http.StatusUnauthorized, "unauthenticated")
			if got, want := resp.Header.Get("WWW-Authenticate"), "Bearer"; got != want {
				t.Errorf("WWW-Authenticate = %q, want %q", got, want)
			}
			if first == nil {
				first = resp.Body
			} else if !bytes.Equal(resp.Body, first) {
				t.Errorf("401 bodies differ:\n%s\n%s", resp.Body, first)
			}
		})
	}
}
