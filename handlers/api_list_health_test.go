package handlers_test

import (
	"net/http"
	"slices"
	"strings"
	"testing"

	"usertasks/handlers/handlerstest"
	"usertasks/models"
)

// TestListHealthFilters: healthCode (repeatable) and healthSeverity narrow any list for
// managers, also across pages; anyone else using them gets 403 (before the values are
// checked); unknown values are 422.
func TestListHealthFilters(t *testing.T) {
	env := handlerstest.SQLite(t, nil)
	ann, max := handlerstest.Worker("acme", "ann", "finance"), handlerstest.Manager("acme", "max")
	health := func(sev models.Severity, code string) models.Health {
		return models.Health{Severity: sev, Code: code, Message: "finding"}
	}
	env.Task(t, handlerstest.TaskOpts{Title: "a-nobody", Health: health(models.SeverityAdvisory, models.HealthNoParticipants)})
	env.Task(t, handlerstest.TaskOpts{Title: "b-form", Candidates: []string{"ann"}, Health: health(models.SeverityBlocking, models.HealthFormResolutionFailed)})
	env.Task(t, handlerstest.TaskOpts{Title: "c-form", Assignee: "ann", Health: health(models.SeverityBlocking, models.HealthFormResolutionFailed)})
	env.Task(t, handlerstest.TaskOpts{Title: "d-snapshot", Groups: []string{"finance"}, Health: health(models.SeverityBlocking, models.HealthSnapshotResolutionFailed)})
	env.Task(t, handlerstest.TaskOpts{Title: "e-healthy", Assignee: "ann"})
	env.Task(t, handlerstest.TaskOpts{Title: "f-unnotified", Assignee: "ann", Health: health(models.SeverityAdvisory, models.HealthNotificationDeliveryFailing)})
	env.Task(t, handlerstest.TaskOpts{Tenant: "globex", Title: "x-other-tenant", Health: health(models.SeverityBlocking, models.HealthFormResolutionFailed)})

	for _, c := range []struct {
		name, query string
		want        []string
	}{
		{"OneCode", "scope=all&healthCode=form-resolution-failed", []string{"b-form", "c-form"}},
		{"RepeatedCodes", "scope=all&healthCode=form-resolution-failed&healthCode=no-participants", []string{"a-nobody", "b-form", "c-form"}},
		{"Severity", "scope=all&healthSeverity=blocking", []string{"b-form", "c-form", "d-snapshot"}},
		{"Advisory", "scope=all&healthSeverity=advisory", []string{"a-nobody", "f-unnotified"}},
		{"NotificationDeliveryFailing", "scope=needs-attention&healthCode=notification-delivery-failing", []string{"f-unnotified"}},
		{"CodeAndSeverity", "scope=all&healthCode=no-participants&healthCode=snapshot-resolution-failed&healthSeverity=blocking", []string{"d-snapshot"}},
		{"NeedsAttention", "scope=needs-attention&healthCode=snapshot-resolution-failed", []string{"d-snapshot"}},
		{"ManagerOwnAssigned", "scope=assigned&healthSeverity=blocking", nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			got := listAll(t, env, max, c.query+"&sort=title&limit=1")
			if !slices.Equal(got, c.want) {
				t.Fatalf("titles %v, want %v (followed page by page through the cursor)", got, c.want)
			}
			p := listPage(t, env, max, c.query+"&includeTotalCount=true")
			if p.TotalCount == nil || *p.TotalCount != len(c.want) {
				t.Fatalf("totalCount %s, want %d", p.raw["totalCount"], len(c.want))
			}
		})
	}

	t.Run("CursorKeepsTheFilter", func(t *testing.T) {
		first := listPage(t, env, max, "scope=all&healthSeverity=blocking&sort=title&limit=2")
		if first.NextCursor == nil || !slices.Equal(first.titles(), []string{"b-form", "c-form"}) {
			t.Fatalf("first page %v, cursor %v", first.titles(), first.NextCursor)
		}
		next := listPage(t, env, max, "scope=all&healthSeverity=blocking&sort=title&limit=2&cursor="+*first.NextCursor)
		if !slices.Equal(next.titles(), []string{"d-snapshot"}) || next.NextCursor != nil {
			t.Fatalf("second page %v, cursor %v", next.titles(), next.NextCursor)
		}
	})

	t.Run("NonManagerIsForbidden", func(t *testing.T) {
		for _, c := range []struct {
			query    string
			contract handlerstest.Contract
		}{
			{"scope=assigned&healthSeverity=blocking", handlerstest.Conforms},
			{"scope=available&healthCode=form-resolution-failed", handlerstest.Conforms},
			{"scope=history&healthCode=no-such-code", handlerstest.Breaks}, // 403 before the value is looked at
			{"healthSeverity=critical", handlerstest.Breaks},
		} {
			resp := env.Do(t, handlerstest.Request{Method: http.MethodGet, Path: "/api/v1/user-tasks?" + c.query, Token: env.Token(t, ann), Contract: c.contract})
			resp.WantProblem(t, http.StatusForbidden, "forbidden")
		}
	})

	t.Run("UnknownValuesAre422", func(t *testing.T) {
		for _, q := range []string{
			"scope=all&healthCode=no-such-code",
			"scope=all&healthCode=form-resolution-failed&healthCode=FORM-RESOLUTION-FAILED",
			"scope=all&healthCode=",
			"scope=all&healthCode=no-participants%00",
			"scope=all&healthCode=%2F..%2F%3F%23%20%C3%A9%E2%80%AE",
			"scope=all&healthCode=" + strings.Repeat("x", 300),
			"scope=all&healthSeverity=critical",
		} {
			resp := env.Do(t, handlerstest.Request{Method: http.MethodGet, Path: "/api/v1/user-tasks?" + q, Token: env.Token(t, max), Contract: handlerstest.Breaks})
			resp.WantProblem(t, http.StatusUnprocessableEntity, "validation-failed")
			if body := string(resp.Body); strings.Contains(body, "no-such-code") || strings.Contains(body, "xxxxxxxx") {
				t.Errorf("%.80s: the problem echoes the input: %s", q, body)
			}
		}
		resp := env.Do(t, handlerstest.Request{Method: http.MethodGet, Path: "/api/v1/user-tasks?scope=all&healthSeverity=blocking&healthSeverity=advisory",
			Token: env.Token(t, max)})
		resp.WantProblem(t, http.StatusUnprocessableEntity, "validation-failed")
	})
}
