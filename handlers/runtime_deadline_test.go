package handlers

import (
	"net/http"
	"slices"
	"testing"

	"usertasks/models"
)

// TestRuntimeProjectionDeadlines: the projection's deadlines are validated strictly; every
// refusal is a 422 naming the member by its wire path, and a valid list creates the task.
func TestRuntimeProjectionDeadlines(t *testing.T) {
	env := newRuntimeEnv(t, 0)
	flag := []any{map[string]any{"type": "flag"}}
	deadline := func(kind string, extra map[string]any, actions []any) map[string]any {
		d := map[string]any{"kind": kind, "actions": actions}
		for k, v := range extra {
			d[k] = v
		}
		return d
	}
	six := func(v any) []any {
		out := make([]any, 6)
		for i := range out {
			out[i] = v
		}
		return out
	}
	after := map[string]any{"after": "PT1H"}

	t.Run("OK", func(t *testing.T) {
		a := env.post(t, "runtime", "/bookmarks", bookmarkBody("bm-deadlines-ok2", func(task map[string]any) {
			task["deadlines"] = []any{
				deadline("start", map[string]any{"after": "PT2S"}, []any{
					map[string]any{"type": "reassign", "candidateGroups": []any{map[string]any{"id": "leads"}}},
					map[string]any{"type": "set-priority", "priority": 90},
					map[string]any{"type": "notify", "to": "managers"},
					map[string]any{"type": "notify", "to": []any{map[string]any{"id": "bob"}, map[string]any{"type": "group", "id": "ops"}}},
				}),
				deadline("completion", map[string]any{"at": "2030-01-01T00:00:00Z"}, flag),
			}
		}))
		if a.status != http.StatusCreated {
			t.Fatalf("status %d %s, want 201", a.status, a.body)
		}
	})

	tests := []struct {
		name      string
		deadlines any
		field     string
	}{
		{"BothAfterAndAt", []any{deadline("start", map[string]any{"after": "PT1H", "at": "2030-01-01T00:00:00Z"}, flag)}, "task.deadlines[0]"},
		{"ZeroDuration", []any{deadline("start", map[string]any{"after": "PT0S"}, flag)}, "task.deadlines[0].after"},
		{"NegativeDuration", []any{deadline("start", map[string]any{"after": "-PT1H"}, flag)}, "task.deadlines[0].after"},
		{"P366D", []any{deadline("start", map[string]any{"after": "P366D"}, flag)}, "task.deadlines[0].after"},
		{"UnknownKind", []any{deadline("claimed", after, flag)}, "task.deadlines[0].kind"},
		{"UnknownAction", []any{deadline("start", after, []any{map[string]any{"type": "escalate"}})}, "task.deadlines[0].actions[0].type"},
		{"SixDeadlines", six(deadline("start", after, flag)), "task.deadlines"},
		{"SixActions", []any{deadline("start", after, six(map[string]any{"type": "flag"}))}, "task.deadlines[0].actions"},
		{"UnknownMember", []any{deadline("start", map[string]any{"after": "PT1H", "repeat": true}, flag)}, "task.deadlines[0].repeat"},
		{"UnknownActionMember", []any{deadline("start", after, []any{map[string]any{"type": "flag", "color": "red"}})}, "task.deadlines[0].actions[0].color"},
		{"UnknownAudience", []any{deadline("start", after, []any{map[string]any{"type": "notify", "to": "everyone"}})}, "task.deadlines[0].actions[0].to"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a := env.post(t, "runtime", "/bookmarks", bookmarkBody("bm-"+tt.name, func(task map[string]any) { task["deadlines"] = tt.deadlines }))
			fields := a.wantProblem(t, http.StatusUnprocessableEntity, models.CodeValidationFailed)
			if !slices.Contains(fields, tt.field) {
				t.Errorf("fields %v, want %s", fields, tt.field)
			}
		})
	}
	t.Run("ToOfTheWrongType", func(t *testing.T) {
		a := env.post(t, "runtime", "/bookmarks", bookmarkBody("bm-to-type", func(task map[string]any) {
			task["deadlines"] = []any{deadline("start", after, []any{map[string]any{"type": "notify", "to": 7}})}
		}))
		a.wantProblem(t, http.StatusUnprocessableEntity, models.CodeValidationFailed)
	})
}
