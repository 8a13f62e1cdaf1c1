package handlers_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"usertasks/testfactory"
)

// FuzzGuestAPI walks the guest API with fuzzed inputs about a fresh task and code invitation:
// the challenge and verification of a token ("$TOKEN" stands for the real one) with a body
// ("$CODE" for the real code), then the session's task and completion with a body. When the
// fuzzed verification does not yield a session, the real token and code do.
func FuzzGuestAPI(f *testing.F) {
	s := newFuzzServer(f, true)
	f.Add("$TOKEN", []byte(`{"code":"$CODE"}`), []byte(`{"expectedRevision":1,"operationId":"g-1","actionKey":"Approve","data":{"note":"fine"}}`))
	f.Add("$TOKEN", []byte(`{"code":"000000"}`), []byte(`{"expectedRevision":1,"operationId":"g-2","actionKey":"Reject"}`))
	f.Add("not-a-token", []byte(`{}`), []byte(`{"expectedRevision":1,"actionKey":"Approve","data":{"note":"x","pin":"1"}}`))
	f.Add("$TOKEN", []byte(`{"code":"$CODE","extra":1}`), []byte(`{"expectedRevision":2,"operationId":"g-3","actionKey":"Cancelled","data":[]}`))
	f.Add("a b?#/ü\u202e", []byte(`["$CODE"]`), []byte(`{"expectedRevision":1,"operationId":"\u0000","actionKey":"Approve","data":{"note":"\ud800"}}`))

	f.Fuzz(func(t *testing.T, token string, verifyBody, completeBody []byte) {
		ctx := context.Background()
		task := s.Task(t, fuzzTaskOpts())
		inv := testfactory.Invitation(ctx, t, s.Store, task, &testfactory.InvitationOpts{AllowedActions: []string{"Approve", "Reject"}})
		token = strings.ReplaceAll(token, "$TOKEN", inv.Token)
		if verifyBody != nil {
			verifyBody = []byte(strings.ReplaceAll(string(verifyBody), "$CODE", inv.Code))
		}
		invitation := "/api/v1/user-task-invitations/" + url.PathEscape(token)
		s.send(t, fuzzCall{method: http.MethodGet, path: invitation})
		status, answer := s.send(t, fuzzCall{method: http.MethodPost, path: invitation + "/verify", body: verifyBody})
		if status != http.StatusOK {
			real := []byte(`{"code":"` + inv.Code + `"}`)
			status, answer = s.send(t, fuzzCall{method: http.MethodPost, path: "/api/v1/user-task-invitations/" + inv.Token + "/verify", body: real})
			if status != http.StatusOK {
				t.Fatalf("the real token and code did not verify: %d %s", status, answer)
			}
		}
		var v struct{ SessionCredential string }
		if err := json.Unmarshal(answer, &v); err != nil || v.SessionCredential == "" {
			t.Fatalf("verification without a credential: %s", answer)
		}
		session := http.Header{"Authorization": {"UserTaskSession " + v.SessionCredential}}
		s.send(t, fuzzCall{method: http.MethodGet, path: "/api/v1/user-task-sessions/current", header: session})
		s.send(t, fuzzCall{method: http.MethodPost, path: "/api/v1/user-task-sessions/current/complete", header: session, body: completeBody})
	})
}
