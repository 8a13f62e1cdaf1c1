package workflow_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"testing"

	"usertasks/directory"
	"usertasks/models"
	"usertasks/testfactory"
	"usertasks/workflow"
)

// A snapshot group is expanded through an HTTP directory when the task is projected.
func TestProjectionThroughHTTPDirectory(t *testing.T) {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /dir/groups/{id}/members", func(w http.ResponseWriter, r *http.Request) {
		if r.PathValue("id") != "finance team" {
			http.NotFound(w, r)
			return
		}
		_ = json.NewEncoder(w).Encode(map[string]any{"members": []map[string]string{
			{"id": "ann", "displayName": "Ann"}, {"id": "bob", "provider": "corp"},
		}})
	})
	srv := httptest.NewServer(mux)
	defer srv.Close()
	d, err := directory.NewHTTP(srv.URL+"/dir/", directory.HTTPOptions{})
	if err != nil {
		t.Fatal(err)
	}

	store := testfactory.OpenStore(t, testfactory.SQLite, nil)
	p := newTestProjector(store, d)
	task, _, err := p.Project(context.Background(), "t 1", sampleBookmark(func(r *workflow.ProjectionRequest) {
		r.Task.CandidateGroups = []workflow.Participant{{ID: "finance team"}}
		r.Task.MembershipMode = "snapshot"
	}))
	if err != nil {
		t.Fatal(err)
	}
	if task.CandidateSummary.Users != 2 || task.Health.Severity != models.SeverityNone {
		t.Errorf("summary %+v health %+v, want 2 snapshot users", task.CandidateSummary, task.Health)
	}
}
