package handlers_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/url"
	"os"
	"slices"
	"strings"
	"testing"

	"usertasks/handlers/handlerstest"
	"usertasks/models"
)

// accessAnswer is the body of GET /api/v1/user-tasks/{id}/access.
type accessAnswer struct {
	Participant struct{ Type, Provider, ID string }
	Premises    []accessStep
	View        accessDecision
	Claim       accessDecision
	Complete    accessDecision
}

type accessDecision struct {
	Allowed bool
	Because []accessStep
}

type accessStep struct {
	Rule, Effect, Detail string
	Args                 []string
}

func (d accessDecision) rules() []string {
	out := []string{}
	for _, s := range d.Because {
		out = append(out, s.Rule+":"+s.Effect)
	}
	return out
}

func accessPath(id, participant string) string {
	return handlerstest.TaskPath(id, "access") + "?participant=" + url.QueryEscape(participant)
}

func TestAccessAPI(t *testing.T) {
	env := handlerstest.SQLite(t, nil)
	ann, max := handlerstest.Worker("acme", "ann"), handlerstest.Manager("acme", "max")
	task := env.Task(t, handlerstest.TaskOpts{Candidates: []string{"ann"}, Groups: []string{"finance"}, Excluded: []string{"eve"}})
	get := func(t *testing.T, u handlerstest.User, path string, contract handlerstest.Contract) handlerstest.Response {
		t.Helper()
		return env.Do(t, handlerstest.Request{Method: http.MethodGet, Path: path, Token: env.Token(t, u), Contract: contract})
	}
	explained := func(t *testing.T) []models.Event {
		t.Helper()
		evs, err := env.Store.Events(context.Background(), "acme", task.ID, 0, 200)
		if err != nil {
			t.Fatal(err)
		}
		var out []models.Event
		for _, e := range evs {
			if e.Type == models.EventAccessExplained {
				out = append(out, e)
			}
		}
		return out
	}

	t.Run("OK", func(t *testing.T) {
		resp := get(t, max, accessPath(task.ID, "user:ann"), handlerstest.Conforms)
		resp.WantStatus(t, http.StatusOK)
		var got accessAnswer
		resp.JSON(t, &got)
		if got.Participant.ID != "ann" || got.Participant.Type != "user" || got.Participant.Provider != "default" {
			t.Errorf("participant %+v", got.Participant)
		}
		if !got.View.Allowed || !got.Claim.Allowed || got.Complete.Allowed {
			t.Errorf("view %v claim %v complete %v, want true true false", got.View.Allowed, got.Claim.Allowed, got.Complete.Allowed)
		}
		if want := []string{"tenant:allow", "permission-assumed:note", "permission-assumed:note", "candidate-user:allow", "status:allow"}; !slices.Equal(got.Claim.rules(), want) {
			t.Errorf("claim steps %v, want %v", got.Claim.rules(), want)
		}
		var premises []string
		for _, p := range got.Premises {
			premises = append(premises, p.Rule)
		}
		// the test server has no participant directory
		if want := []string{"manager-not-assumed", "groups-unknown"}; !slices.Equal(premises, want) {
			t.Errorf("premises %v, want %v", premises, want)
		}
		evs := explained(t)
		if len(evs) != 1 || evs[0].Actor.ID != "max" || string(evs[0].Metadata) != `{"participant":{"provider":"default","type":"user","id":"ann"}}` {
			t.Fatalf("access-explained events %+v", evs)
		}
		if got := env.Get(t, task).Revision; got != task.Revision {
			t.Errorf("revision %d, want %d (explaining changes no state)", got, task.Revision)
		}
	})
	t.Run("ExcludedAndGroup", func(t *testing.T) {
		var eve, finance accessAnswer
		get(t, max, accessPath(task.ID, "user:eve"), handlerstest.Conforms).JSON(t, &eve)
		if eve.View.Allowed || !slices.Contains(eve.View.rules(), "excluded:deny") {
			t.Errorf("eve view %v", eve.View.rules())
		}
		get(t, max, accessPath(task.ID, "group:finance")+"&provider=default", handlerstest.Conforms).JSON(t, &finance)
		if !finance.Claim.Allowed || !slices.Contains(finance.Claim.rules(), "candidate-group:allow") {
			t.Errorf("finance claim %v", finance.Claim.rules())
		}
	})
	t.Run("HostileParticipantIDs", func(t *testing.T) {
		for _, id := range []string{"a/b", "a?b=c", "a#b", "a b", "Jürgen 日本", "user:nested", "%2F", "../x"} {
			resp := get(t, max, accessPath(task.ID, "user:"+id), handlerstest.Conforms)
			resp.WantStatus(t, http.StatusOK)
			var got accessAnswer
			resp.JSON(t, &got)
			if got.Participant.ID != id || got.View.Allowed {
				t.Errorf("%q: participant %+v, view %v", id, got.Participant, got.View.Allowed)
			}
		}
	})
	t.Run("ErrUnauthenticated", func(t *testing.T) {
		env.Do(t, handlerstest.Request{Method: http.MethodGet, Path: accessPath(task.ID, "user:ann"), Contract: handlerstest.Breaks}).
			WantProblem(t, http.StatusUnauthorized, "unauthenticated")
	})
	t.Run("ErrForbidden", func(t *testing.T) {
		before := len(explained(t))
		noSupervise := max
		noSupervise.Permissions = []string{"user-tasks:view", "user-tasks:assign"}
		for _, u := range []handlerstest.User{ann, noSupervise} {
			for _, path := range []string{accessPath(task.ID, "user:ann"), accessPath("0190aaaa-0000-7000-8000-000000000000", "user:ann"), accessPath(task.ID, "bad")} {
				get(t, u, path, handlerstest.Conforms).WantProblem(t, http.StatusForbidden, "forbidden")
			}
		}
		if got := len(explained(t)); got != before {
			t.Errorf("refused calls wrote %d events", got-before)
		}
	})
	t.Run("ErrNotFound", func(t *testing.T) {
		other := handlerstest.Manager("zeta", "zed")
		get(t, other, accessPath(task.ID, "user:ann"), handlerstest.Conforms).WantProblem(t, http.StatusNotFound, "not-found")
		get(t, max, accessPath("0190aaaa-0000-7000-8000-000000000000", "user:ann"), handlerstest.Conforms).WantProblem(t, http.StatusNotFound, "not-found")
		for _, id := range []string{"%00", "%FF", "a%20b", "%3F", "%23", "%E6%97%A5", "a%2Fb"} {
			env.Do(t, handlerstest.Request{Method: http.MethodGet, Path: "/api/v1/user-tasks/" + id + "/access?participant=user:ann",
				Token: env.Token(t, max), Contract: handlerstest.Breaks}).WantProblem(t, http.StatusNotFound, "not-found")
		}
	})
	t.Run("ErrValidationFailed", func(t *testing.T) {
		for name, c := range map[string]struct{ query, field string }{
			"Missing":     {"", "participant"},
			"NoType":      {"?participant=ann", "participant"},
			"UnknownType": {"?participant=robot%3Aann", "participant"},
			"EmptyID":     {"?participant=user%3A", "participant"},
			"Control":     {"?participant=user%3Aa%00b", "participant"},
			"Bidi":        {"?participant=user%3Aa%E2%80%AEb", "participant"},
			"Oversized":   {"?participant=user%3A" + strings.Repeat("x", 300), "participant"},
			"Provider":    {"?participant=user%3Aann&provider=guest", "provider"},
		} {
			contract := handlerstest.Conforms
			if name == "Missing" || name == "Oversized" {
				contract = handlerstest.Breaks
			}
			p := env.Do(t, handlerstest.Request{Method: http.MethodGet, Path: handlerstest.TaskPath(task.ID, "access") + c.query,
				Token: env.Token(t, max), Contract: contract}).WantProblem(t, http.StatusUnprocessableEntity, "validation-failed")
			if !slices.Equal(p.Fields(), []string{c.field}) {
				t.Errorf("%s: fields %v, want [%s]", name, p.Fields(), c.field)
			}
		}
	})
}

// TestAccessRulesDocumented: the OpenAPI document lists exactly the policy's rule keys.
func TestAccessRulesDocumented(t *testing.T) {
	raw, err := os.ReadFile("openapi.json")
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Components struct {
			Schemas struct {
				AccessReason struct {
					Properties struct {
						Rule struct {
							Enum []string `json:"enum"`
						} `json:"rule"`
					} `json:"properties"`
				} `json:"AccessReason"`
			} `json:"schemas"`
		} `json:"components"`
	}
	if err := json.Unmarshal(raw, &doc); err != nil {
		t.Fatal(err)
	}
	got := slices.Sorted(slices.Values(doc.Components.Schemas.AccessReason.Properties.Rule.Enum))
	var want []string
	for _, r := range models.Rules() {
		want = append(want, string(r))
	}
	if !slices.Equal(got, want) {
		t.Errorf("documented rules\n %v\nwant\n %v", got, want)
	}
}
