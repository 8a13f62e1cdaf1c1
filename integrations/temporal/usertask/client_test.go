package usertask

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// A validation refusal names the members User Tasks refused, so a workflow's failure says
// which deadline member to fix; it is final (not retried).
func TestRefusalNamesTheFields(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/problem+json")
		w.WriteHeader(http.StatusUnprocessableEntity)
		_, _ = w.Write([]byte(`{"code":"validation-failed","errors":[{"field":"task.deadlines[0].after","message":"must be at least PT1S"},{"field":"task.deadlines[1]","message":"x"}]}`))
	}))
	defer srv.Close()
	c := &Client{BaseURL: srv.URL, Token: func(context.Context) (string, error) { return "t", nil }}
	_, err := c.Project(context.Background(), Projection{})
	var r *refusal
	if !errors.As(err, &r) {
		t.Fatalf("got %v, want a refusal", err)
	}
	if want := "422 validation-failed (task.deadlines[0].after, task.deadlines[1])"; !strings.Contains(err.Error(), want) {
		t.Fatalf("error %q, want it to contain %q", err, want)
	}
}
