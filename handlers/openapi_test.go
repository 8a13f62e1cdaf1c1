package handlers_test

import (
	"encoding/json"
	"net/http"
	"slices"
	"strings"
	"testing"

	"usertasks/handlers/handlerstest"
)

// TestOpenAPI checks the served document: public, OpenAPI 3.1 (the harness refuses an invalid
// one), bearer security, and exactly the routes of this API.
func TestOpenAPI(t *testing.T) {
	env := handlerstest.SQLite(t, nil)

	t.Run("OK", func(t *testing.T) {
		resp := env.Do(t, handlerstest.Request{Method: http.MethodGet, Path: "/api/v1/openapi.json"})
		if got, want := resp.Status, http.StatusOK; got != want {
			t.Fatalf("status = %d, want %d", got, want)
		}
		var doc struct {
			OpenAPI    string                                `json:"openapi"`
			Paths      map[string]map[string]json.RawMessage `json:"paths"`
			Components struct {
				SecuritySchemes map[string]struct {
					Type, Scheme string
				} `json:"securitySchemes"`
			} `json:"components"`
		}
		resp.JSON(t, &doc)
		if got, want := doc.OpenAPI, "3.1.0"; got != want {
			t.Errorf("openapi = %q, want %q", got, want)
		}
		if got := doc.Components.SecuritySchemes["bearerAuth"]; got.Type != "http" || got.Scheme != "bearer" {
			t.Errorf("bearerAuth = %+v, want http bearer", got)
		}
		var routes []string
		for path, ops := range doc.Paths {
			for method := range ops {
				routes = append(routes, strings.ToUpper(method)+" "+path)
			}
		}
		slices.Sort(routes)
		want := []string{
			"DELETE /api/v1/me/absence",
			"DELETE /api/v1/user-task-participants/{id}/absence",
			"DELETE /api/v1/user-task-views/{id}",
			"DELETE /api/v1/user-tasks/{id}/attachments/{attachmentId}",
			"DELETE /api/v1/user-tasks/{id}/comments/{commentId}",
			"DELETE /api/v1/user-tasks/{id}/invitations/{invitationId}",
			"DELETE /api/v1/workflow-definitions/{id}/deadline-policy",
			"GET /api/v1/me/absence",
			"GET /api/v1/me/notification-preferences",
			"GET /api/v1/me/notifications",
			"GET /api/v1/openapi.json",
			"GET /api/v1/reconciliation",
			"GET /api/v1/user-task-invitations/{token}",
			"GET /api/v1/user-task-participants",
			"GET /api/v1/user-task-participants/{id}/absence",
			"GET /api/v1/user-task-sessions/current",
			"GET /api/v1/user-task-views",
			"GET /api/v1/user-task-views/{id}",
			"GET /api/v1/user-tasks",
			"GET /api/v1/user-tasks/capabilities",
			"GET /api/v1/user-tasks/stream",
			"GET /api/v1/user-tasks/{id}",
			"GET /api/v1/user-tasks/{id}/access",
			"GET /api/v1/user-tasks/{id}/attachments",
			"GET /api/v1/user-tasks/{id}/attachments/{attachmentId}",
			"GET /api/v1/user-tasks/{id}/comments",
			"GET /api/v1/user-tasks/{id}/events",
			"GET /api/v1/user-tasks/{id}/invitations",
			"GET /api/v1/workflow-definitions/{id}/deadline-policy",
			"GET /api/v1/workflow-definitions/{id}/deadline-policy/audit",
			"PATCH /api/v1/user-tasks/{id}",
			"POST /api/v1/me/notifications/read",
			"POST /api/v1/runtime/bookmarks",
			"POST /api/v1/runtime/bookmarks/removed",
			"POST /api/v1/user-task-invitations/{token}/verify",
			"POST /api/v1/user-task-sessions/current/complete",
			"POST /api/v1/user-task-views",
			"POST /api/v1/user-tasks/bulk",
			"POST /api/v1/user-tasks/{id}/assign",
			"POST /api/v1/user-tasks/{id}/attachments",
			"POST /api/v1/user-tasks/{id}/cancel",
			"POST /api/v1/user-tasks/{id}/claim",
			"POST /api/v1/user-tasks/{id}/comments",
			"POST /api/v1/user-tasks/{id}/complete",
			"POST /api/v1/user-tasks/{id}/delegate",
			"POST /api/v1/user-tasks/{id}/invitations",
			"POST /api/v1/user-tasks/{id}/release",
			"POST /api/v1/user-tasks/{id}/retry-resolution",
			"POST /api/v1/user-tasks/{id}/return",
			"POST /api/v1/user-tasks/{id}/reveal",
			"PUT /api/v1/me/absence",
			"PUT /api/v1/me/notification-preferences",
			"PUT /api/v1/user-task-participants/{id}/absence",
			"PUT /api/v1/workflow-definitions/{id}/deadline-policy",
		}
		if !slices.Equal(routes, want) {
			t.Errorf("routes =\n%s\nwant\n%s", strings.Join(routes, "\n"), strings.Join(want, "\n"))
		}
	})
}
