package handlers_test

import (
	"context"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"usertasks/handlers/handlerstest"
	"usertasks/invitations"
	"usertasks/models"
)

// guestTaskOpts is a task with two invitation definitions: code for both actions, and a
// bearer-capable one for Approve only.
func guestTaskOpts() handlerstest.TaskOpts {
	return handlerstest.TaskOpts{
		Candidates: []string{"ann"},
		Actions:    []models.Action{{Key: "Approve", Label: "Approve"}, {Key: "Reject", Label: "Reject"}},
		Projection: func(p *models.Projection) {
			p.Invitations = []models.InvitationDefinition{
				{VerifierName: "code", AllowedActions: []string{"Approve", "Reject"}, Lifetime: "P2D"},
				{VerifierName: "bearer", AllowedActions: []string{"Approve"}, BearerOnly: true},
			}
		},
	}
}

type invitationWire struct {
	ID             string   `json:"id"`
	SiblingGroupID string   `json:"siblingGroupId"`
	VerifierName   string   `json:"verifierName"`
	AllowedActions []string `json:"allowedActions"`
	Recipient      string   `json:"recipient"`
	Status         string   `json:"status"`
	Revocable      bool     `json:"revocable"`
	Delivery       *struct {
		State    string `json:"state"`
		Attempts int    `json:"attempts"`
	} `json:"delivery"`
}

func TestInvitationsAPI(t *testing.T) {
	env := handlerstest.SQLite(t, nil)
	boss := env.Token(t, handlerstest.Manager("acme", "max"))
	ann := env.Token(t, handlerstest.Worker("acme", "ann"))
	zed := env.Token(t, handlerstest.Worker("acme", "zed"))
	other := env.Token(t, handlerstest.Manager("globex", "max"))
	task := env.Task(t, guestTaskOpts())
	path := "/api/v1/user-tasks/" + task.ID + "/invitations"
	var bodies [][]byte

	issue := func(t *testing.T, token string, body any) handlerstest.Response {
		t.Helper()
		resp := env.Do(t, handlerstest.Request{Method: http.MethodPost, Path: path, Token: token, Body: body})
		bodies = append(bodies, resp.Body)
		return resp
	}
	list := func(t *testing.T, token string) []invitationWire {
		t.Helper()
		resp := env.Do(t, handlerstest.Request{Method: http.MethodGet, Path: path, Token: token})
		bodies = append(bodies, resp.Body)
		resp.WantStatus(t, http.StatusOK)
		var out struct{ Items []invitationWire }
		resp.JSON(t, &out)
		return out.Items
	}

	resp := issue(t, boss, map[string]any{"definitionIndex": 0, "recipients": []string{"Guest A", "Guest B"}, "allowedActions": []string{"Approve"}, "operationId": "op-1"})
	resp.WantStatus(t, http.StatusCreated)
	var created struct{ Items []invitationWire }
	resp.JSON(t, &created)
	if len(created.Items) != 2 || created.Items[0].SiblingGroupID == "" || created.Items[0].Status != "issued" ||
		strings.Join(created.Items[0].AllowedActions, ",") != "Approve" || created.Items[0].VerifierName != "code" {
		t.Fatalf("created %+v", created.Items)
	}

	t.Run("Replay", func(t *testing.T) {
		resp := issue(t, boss, map[string]any{"definitionIndex": 0, "recipients": []string{"Guest A", "Guest B"}, "allowedActions": []string{"Approve"}, "operationId": "op-1"})
		resp.WantStatus(t, http.StatusCreated)
		var again struct{ Items []invitationWire }
		resp.JSON(t, &again)
		if len(again.Items) != 2 || again.Items[0].ID != created.Items[0].ID {
			t.Fatalf("replay %+v", again.Items)
		}
		issue(t, boss, map[string]any{"definitionIndex": 0, "recipient": "Guest C", "operationId": "op-1"}).WantProblem(t, http.StatusConflict, "idempotency-conflict")
	})
	t.Run("List", func(t *testing.T) {
		got := list(t, boss)
		if len(got) != 2 || got[0].Delivery == nil || got[0].Delivery.State != "pending" || !got[0].Revocable {
			t.Fatalf("list %+v", got)
		}
	})
	t.Run("Refusals", func(t *testing.T) {
		closed := env.Finalize(t, env.Task(t, guestTaskOpts()))
		plain := env.Task(t, handlerstest.TaskOpts{Candidates: []string{"ann"}})
		ok := map[string]any{"definitionIndex": 0, "recipient": "Guest"}
		cases := []struct {
			name, token, path string
			body              any
			status            int
			code              string
			contract          handlerstest.Contract
		}{
			{"Forbidden_Candidate", ann, path, ok, http.StatusForbidden, "forbidden", 0},
			{"NotFound_Stranger", zed, path, ok, http.StatusNotFound, "not-found", 0},
			{"NotFound_OtherTenant", other, path, ok, http.StatusNotFound, "not-found", 0},
			{"NotFound_Unknown", boss, "/api/v1/user-tasks/" + models.NewID() + "/invitations", ok, http.StatusNotFound, "not-found", 0},
			{"NotFound_Hostile", boss, "/api/v1/user-tasks/" + url.PathEscape("a b?#/ü") + "/invitations", ok, http.StatusNotFound, "not-found", handlerstest.Breaks},
			{"Conflict_Closed", boss, "/api/v1/user-tasks/" + closed.ID + "/invitations", ok, http.StatusConflict, "terminal", 0},
			{"Invalid_NoDefinitions", boss, "/api/v1/user-tasks/" + plain.ID + "/invitations", ok, http.StatusUnprocessableEntity, "validation-failed", 0},
			{"Invalid_UnknownDefinition", boss, path, map[string]any{"definitionIndex": 5, "recipient": "x"}, http.StatusUnprocessableEntity, "validation-failed", 0},
			{"Invalid_Broadening", boss, path, map[string]any{"definitionIndex": 1, "recipient": "x", "allowedActions": []string{"Reject"}}, http.StatusUnprocessableEntity, "validation-failed", 0},
			{"Invalid_LongerLifetime", boss, path, map[string]any{"definitionIndex": 1, "recipient": "x", "lifetime": "P8D"}, http.StatusUnprocessableEntity, "validation-failed", 0},
			{"Invalid_BearerNotOffered", boss, path, map[string]any{"definitionIndex": 0, "recipient": "x", "bearerOnly": true}, http.StatusUnprocessableEntity, "validation-failed", 0},
			{"Invalid_ControlCharacters", boss, path, map[string]any{"definitionIndex": 0, "recipient": "x\u0000\u001b[31m"}, http.StatusUnprocessableEntity, "validation-failed", 0},
			{"Invalid_Oversized", boss, path, map[string]any{"definitionIndex": 0, "recipient": strings.Repeat("ü", 201)}, http.StatusUnprocessableEntity, "validation-failed", 0},
			{"Invalid_Both", boss, path, map[string]any{"definitionIndex": 0, "recipient": "x", "recipients": []string{"y"}}, http.StatusUnprocessableEntity, "validation-failed", 0},
			{"Invalid_UnknownMember", boss, path, map[string]any{"definitionIndex": 0, "recipient": "x", "token": "mine"}, http.StatusUnprocessableEntity, "validation-failed", handlerstest.Breaks},
		}
		for _, c := range cases {
			t.Run(c.name, func(t *testing.T) {
				resp := env.Do(t, handlerstest.Request{Method: http.MethodPost, Path: c.path, Token: c.token, Body: c.body, Contract: c.contract})
				resp.WantProblem(t, c.status, c.code)
			})
		}
		for _, c := range []struct {
			token  string
			status int
		}{{ann, http.StatusForbidden}, {zed, http.StatusNotFound}, {other, http.StatusNotFound}} {
			env.Do(t, handlerstest.Request{Method: http.MethodGet, Path: path, Token: c.token}).WantStatus(t, c.status)
			env.Do(t, handlerstest.Request{Method: http.MethodDelete, Path: path + "/" + created.Items[0].ID, Token: c.token}).WantStatus(t, c.status)
		}
		env.Do(t, handlerstest.Request{Method: http.MethodGet, Path: path, Contract: handlerstest.Breaks}).WantStatus(t, http.StatusUnauthorized)
		if got := list(t, boss); len(got) != 2 {
			t.Fatalf("refused requests changed the list: %d", len(got))
		}
	})
	t.Run("Revoke", func(t *testing.T) {
		del := func(id string) handlerstest.Response {
			resp := env.Do(t, handlerstest.Request{Method: http.MethodDelete, Path: path + "/" + url.PathEscape(id), Token: boss})
			bodies = append(bodies, resp.Body)
			return resp
		}
		del(created.Items[0].ID).WantStatus(t, http.StatusNoContent)
		if got := list(t, boss); got[len(got)-1].ID != created.Items[0].ID || got[len(got)-1].Status != "revoked" || got[len(got)-1].Revocable {
			t.Fatalf("after revoking: %+v", got)
		}
		del(created.Items[0].ID).WantProblem(t, http.StatusConflict, "invitation-not-revocable")
		del(models.NewID()).WantProblem(t, http.StatusNotFound, "not-found")
		del("x y?").WantProblem(t, http.StatusNotFound, "not-found")
	})
	t.Run("NoSecretInAnyAnswerOrLog", func(t *testing.T) {
		rows, err := env.Store.ClaimDeliveries(context.Background(), "test", 10, time.Minute)
		if err != nil || len(rows) == 0 {
			t.Fatalf("deliveries %d %v", len(rows), err)
		}
		for _, d := range rows {
			p, err := invitations.DecodePayload(d.Payload)
			if err != nil || p.Code == "" {
				t.Fatalf("payload: %v", err)
			}
			inv, err := env.Store.FindInvitationByTokenHash(context.Background(), invitations.HashSecret(p.Token))
			if err != nil {
				t.Fatal(err)
			}
			for _, secret := range []string{p.Token, p.Code, inv.TokenHash, inv.CodeHash} {
				for _, b := range bodies {
					if strings.Contains(string(b), secret) {
						t.Fatalf("an answer holds a secret: %s", b)
					}
				}
				if strings.Contains(env.Logs.String(), secret) {
					t.Fatal("the log holds a secret")
				}
			}
		}
	})
}

func TestInvitationsAPIWithoutDispatcher(t *testing.T) {
	env := handlerstest.SQLite(t, &handlerstest.Options{Invitations: &invitations.IssuerOptions{}})
	task := env.Task(t, guestTaskOpts())
	resp := env.Do(t, handlerstest.Request{Method: http.MethodPost, Path: "/api/v1/user-tasks/" + task.ID + "/invitations",
		Token: env.Token(t, handlerstest.Manager("acme", "max")), Body: map[string]any{"definitionIndex": 0, "recipient": "x"}})
	resp.WantProblem(t, http.StatusConflict, "invitations-unavailable")
}
