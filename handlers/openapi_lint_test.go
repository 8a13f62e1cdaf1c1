package handlers_test

import (
	"encoding/json"
	"maps"
	"net/http"
	"os"
	"slices"
	"strings"
	"testing"

	"usertasks/handlers/handlerstest"
	"usertasks/models"
)

// openAPILintDoc is the part of handlers/openapi.json that Redocly's recommended ruleset
// (`make lint-openapi`, run by CI) judges most often; reading it here lets `make test` catch
// a regression on a machine without Node.
type openAPILintDoc struct {
	Info struct {
		License struct {
			Name, URL, Identifier string
		} `json:"license"`
	} `json:"info"`
	Servers []struct {
		URL string `json:"url"`
	} `json:"servers"`
	Tags []struct {
		Name, Description string
	} `json:"tags"`
	Paths map[string]map[string]json.RawMessage `json:"paths"`
}

// openAPIOperation is one operation of the document, as far as the lint test reads it.
type openAPIOperation struct {
	OperationID string                     `json:"operationId"`
	Tags        []string                   `json:"tags"`
	Responses   map[string]json.RawMessage `json:"responses"`
}

// TestOpenAPILint checks what Redocly's recommended lint requires of the document: a server
// (relative: the application is self-hosted), a licence, and on every operation a unique
// operationId, a declared and described tag and at least one 4xx answer.
func TestOpenAPILint(t *testing.T) {
	raw, err := os.ReadFile("openapi.json")
	if err != nil {
		t.Fatal(err)
	}
	var doc openAPILintDoc
	if err := json.Unmarshal(raw, &doc); err != nil {
		t.Fatalf("parse openapi.json: %v", err)
	}

	t.Run("Servers", func(t *testing.T) {
		if len(doc.Servers) == 0 {
			t.Fatal("no servers: Redocly's no-empty-servers is an error")
		}
		for _, s := range doc.Servers {
			if !strings.HasPrefix(s.URL, "/") && !strings.HasPrefix(s.URL, "{") {
				t.Errorf("server %q: want a relative URL or a {variable}, the application is self-hosted", s.URL)
			}
		}
	})

	t.Run("License", func(t *testing.T) {
		l := doc.Info.License
		if l.Name == "" || l.URL == "" && l.Identifier == "" {
			t.Errorf("info.license = %+v, want a name and a url or an SPDX identifier", l)
		}
	})

	described := map[string]bool{}
	for _, tag := range doc.Tags {
		described[tag.Name] = tag.Description != ""
	}
	seen := map[string]string{}
	methods := []string{"get", "put", "post", "delete", "options", "head", "patch", "trace"}
	for path, item := range doc.Paths {
		for method, body := range item {
			if !slices.Contains(methods, method) {
				continue
			}
			route := strings.ToUpper(method) + " " + path
			t.Run(route, func(t *testing.T) {
				var op openAPIOperation
				if err := json.Unmarshal(body, &op); err != nil {
					t.Fatalf("parse operation: %v", err)
				}
				if op.OperationID == "" {
					t.Error("no operationId")
				} else if other, dup := seen[op.OperationID]; dup {
					t.Errorf("operationId %q is also used by %s", op.OperationID, other)
				}
				seen[op.OperationID] = route
				if len(op.Tags) == 0 {
					t.Error("no tag")
				}
				for _, tag := range op.Tags {
					if !described[tag] {
						t.Errorf("tag %q is not declared with a description in the top-level tags", tag)
					}
				}
				if !slices.ContainsFunc(slices.Collect(maps.Keys(op.Responses)), func(code string) bool {
					return strings.HasPrefix(code, "4")
				}) {
					t.Error("no 4xx response")
				}
			})
		}
	}
}

// TestOpenAPIDocumentTooLarge checks the document route's documented 4xx: the body limit
// applies to every route, this public one included.
func TestOpenAPIDocumentTooLarge(t *testing.T) {
	env := handlerstest.SQLite(t, nil)
	resp := env.Do(t, handlerstest.Request{
		Method: http.MethodGet,
		Path:   "/api/v1/openapi.json",
		Body:   strings.Repeat("x", models.MaxRequestBodyBytes+1),
		Header: http.Header{"Content-Type": {"text/plain"}},
	})
	resp.WantProblem(t, http.StatusRequestEntityTooLarge, "payload-too-large")
}
