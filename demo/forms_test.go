package demo_test

import (
	"context"
	"encoding/json"
	"io/fs"
	"testing"

	"usertasks/demo"
	"usertasks/forms"
	"usertasks/formsource"
	"usertasks/models"
)

// TestFormsNameTheirFormats: every demo form parses, and every field with a pattern says
// what a valid value looks like, so a refusal can tell the person what to type.
func TestFormsNameTheirFormats(t *testing.T) {
	paths, err := fs.Glob(demo.Forms, "*/*.json")
	if err != nil || len(paths) == 0 {
		t.Fatalf("demo forms: %v %v", paths, err)
	}
	patterns := 0
	for _, path := range paths {
		raw, err := fs.ReadFile(demo.Forms, path)
		if err != nil {
			t.Fatal(err)
		}
		form, err := forms.Parse(raw)
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		var doc struct {
			Properties map[string]struct {
				Pattern string `json:"pattern"`
			} `json:"properties"`
		}
		if err := json.Unmarshal(raw, &doc); err != nil {
			t.Fatal(err)
		}
		for _, fl := range form.Fields() {
			if doc.Properties[fl.Key].Pattern == "" {
				continue
			}
			patterns++
			if fl.FormatHint == "" {
				t.Errorf("%s: %s has a pattern but no x-ui formatHint", path, fl.Key)
			}
		}
	}
	if patterns == 0 {
		t.Fatal("no demo form has a pattern field; the check checks nothing")
	}
}

// TestFormsResolve: the demo's form references resolve through the file provider.
func TestFormsResolve(t *testing.T) {
	ctx := context.Background()
	p := formsource.NewFileProvider(demo.Forms)
	for _, ref := range []models.FormRef{{Key: "invoice-approval"}, {Key: "invoice-approval", Version: "1"}, {Key: "vendor-onboarding"}} {
		if _, err := p.Resolve(ctx, "acme", ref); err != nil {
			t.Errorf("demo form %+v: %v", ref, err)
		}
	}
}
