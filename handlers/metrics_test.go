package handlers_test

import (
	"net/http"
	"strings"
	"testing"

	"usertasks/handlers/handlerstest"
	"usertasks/metrics"
	"usertasks/metrics/metricstest"
)

const metricsToken = "metrics-token-3f9a1c"

// scrape asks the env's /metrics with token and answers the status and the parsed families
// (nil unless 200).
func scrape(t *testing.T, env *handlerstest.Env, token string) (int, metricstest.Families) {
	t.Helper()
	req, err := http.NewRequest(http.MethodGet, env.URL+"/metrics", nil)
	if err != nil {
		t.Fatal(err)
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return resp.StatusCode, nil
	}
	return resp.StatusCode, metricstest.Parse(t, resp.Body)
}

func TestMetrics(t *testing.T) {
	m := metrics.New()
	env := handlerstest.SQLite(t, &handlerstest.Options{Metrics: m, MetricsToken: metricsToken})
	m.WatchBacklog(env.Store, 0, nil)
	m.WatchPools(env.Store.Pools())
	ann, viewer := handlerstest.Worker("acme", "ann"), handlerstest.Worker("acme", "vic")
	viewer.Permissions = []string{"user-tasks:view"}
	task := env.Task(t, handlerstest.TaskOpts{Candidates: []string{"ann"}})

	command(t, env, ann, task.ID, "claim", map[string]any{"expectedRevision": 1, "operationId": "claim-1"}).WantStatus(t, http.StatusOK)
	command(t, env, ann, task.ID, "claim", map[string]any{"expectedRevision": 1, "operationId": "claim-1"}).WantStatus(t, http.StatusOK)
	command(t, env, ann, task.ID, "claim", map[string]any{"expectedRevision": 1}).WantProblem(t, http.StatusConflict, "revision-conflict")
	command(t, env, viewer, task.ID, "claim", map[string]any{"expectedRevision": 1}).WantProblem(t, http.StatusForbidden, "forbidden")
	env.Do(t, handlerstest.Request{Method: http.MethodGet, Path: handlerstest.TaskPath(task.ID), Token: env.Token(t, ann)}).WantStatus(t, http.StatusOK)
	env.Do(t, handlerstest.Request{Method: http.MethodGet, Path: "/no/such/" + task.ID, Contract: handlerstest.Outside}).WantStatus(t, http.StatusNotFound)

	t.Run("RefusedWithoutTheToken", func(t *testing.T) {
		for _, token := range []string{"", "wrong", metricsToken + "x"} {
			if code, _ := scrape(t, env, token); code != http.StatusUnauthorized {
				t.Errorf("token %q: %d, want 401", token, code)
			}
		}
	})
	t.Run("NamedSeries", func(t *testing.T) {
		code, f := scrape(t, env, metricsToken)
		if code != http.StatusOK {
			t.Fatalf("GET /metrics = %d", code)
		}
		for _, c := range []struct {
			name   string
			labels map[string]string
			want   float64
		}{
			{"usertasks_http_request_duration_seconds", map[string]string{"method": "POST", "route": "/api/v1/user-tasks/:id/claim", "status": "2xx"}, 2},
			{"usertasks_http_request_duration_seconds", map[string]string{"method": "POST", "route": "/api/v1/user-tasks/:id/claim", "status": "4xx"}, 2},
			{"usertasks_http_request_duration_seconds", map[string]string{"method": "GET", "route": "/api/v1/user-tasks/:id", "status": "2xx"}, 1},
			{"usertasks_commands_total", map[string]string{"kind": "claim", "outcome": "applied"}, 1},
			{"usertasks_commands_total", map[string]string{"kind": "claim", "outcome": "replayed"}, 1},
			{"usertasks_commands_total", map[string]string{"kind": "claim", "outcome": "conflict"}, 1},
			{"usertasks_commands_total", map[string]string{"kind": "claim", "outcome": "forbidden"}, 1},
			{"usertasks_conflicts_total", map[string]string{"kind": "claim", "code": "revision-conflict"}, 1},
			{"usertasks_resumption_outbox_pending", nil, 0},
			{"usertasks_invitation_deliveries", map[string]string{"state": "pending"}, 0},
			{"usertasks_backlog_read_up", nil, 1},
		} {
			if got := f.Value(t, c.name, c.labels); got != c.want {
				t.Errorf("%s%v = %v, want %v", c.name, c.labels, got, c.want)
			}
		}
		if len(f.Series("go_sql_open_connections", nil)) == 0 {
			t.Error("no database pool statistics")
		}
		// Route templates only: no id, tenant or person is a label value anywhere.
		for name, fam := range f {
			for _, s := range fam.GetMetric() {
				for _, l := range s.GetLabel() {
					if v := l.GetValue(); strings.Contains(v, task.ID) || strings.Contains(v, "acme") || strings.Contains(v, "ann") {
						t.Errorf("%s carries %s=%q", name, l.GetName(), v)
					}
				}
			}
		}
	})
}

func TestMetricsOffWithoutToken(t *testing.T) {
	env := handlerstest.SQLite(t, &handlerstest.Options{Metrics: metrics.New()})
	if code, _ := scrape(t, env, ""); code != http.StatusNotFound {
		t.Fatalf("GET /metrics without a configured token = %d, want 404", code)
	}
}
