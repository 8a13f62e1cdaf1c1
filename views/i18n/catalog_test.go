package i18n

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"time"

	"usertasks/models"
)

func TestWebCatalogsComplete(t *testing.T) {
	for _, c := range Supported {
		t.Run(c.Lang, func(t *testing.T) {
			v := reflect.ValueOf(*c)
			for i := range v.NumField() {
				f, name := v.Field(i), v.Type().Field(i).Name
				if !v.Type().Field(i).IsExported() {
					continue
				}
				switch f.Kind() {
				case reflect.String:
					if f.String() == "" {
						t.Errorf("%s is empty", name)
					}
				case reflect.Array:
					for j := range f.Len() {
						if f.Index(j).String() == "" {
							t.Errorf("%s[%d] is empty", name, j)
						}
					}
				case reflect.Map:
					// Every key English has, this language has too, and no other.
					want := reflect.ValueOf(*english).Field(i)
					for _, k := range want.MapKeys() {
						if v := f.MapIndex(k); !v.IsValid() || v.String() == "" {
							t.Errorf("%s[%v] is missing", name, k)
						}
					}
					for _, k := range f.MapKeys() {
						if !want.MapIndex(k).IsValid() {
							t.Errorf("%s[%v] has no English counterpart", name, k)
						}
					}
				}
			}
			for _, s := range models.AllStatuses {
				if c.Statuses[s] == "" {
					t.Errorf("status %s has no name", s)
				}
			}
			for _, k := range models.SortKeys {
				if c.Sorts[k] == "" {
					t.Errorf("sort %s has no name", k)
				}
			}
			for _, s := range []models.Scope{models.ScopeAssigned, models.ScopeAvailable, models.ScopeHistory, models.ScopeAll, models.ScopeNeedsAttention} {
				if c.Scopes[s] == "" || c.EmptyTitles[s] == "" || c.EmptyHints[s] == "" {
					t.Errorf("scope %s lacks a name, empty title or hint", s)
				}
			}
			for _, d := range []models.DueFilter{models.DueOverdue, models.DueToday, models.DueThisWeek, models.DueNoDueDate} {
				if c.DueFilters[d] == "" {
					t.Errorf("due filter %s has no name", d)
				}
			}
			if len(c.Events) != len(english.Events) {
				t.Errorf("%d event names, want %d", len(c.Events), len(english.Events))
			}
		})
	}
}

func TestWebLanguageMatch(t *testing.T) {
	for header, want := range map[string]string{
		"":                        "en",
		"de":                      "de",
		"de-CH,de;q=0.9,en;q=0.8": "de",
		"fr-FR,fr;q=0.9":          "en",
		"en-GB,en;q=0.9,de;q=0.8": "en",
		"fr;q=0.9, de;q=0.5":      "de",
		"not a header;;;q=x":      "en",
		"*":                       "en",
	} {
		if got := Match(header).Lang; got != want {
			t.Errorf("Match(%q) = %s, want %s", header, got, want)
		}
	}
}

func TestWebRelativeAndDate(t *testing.T) {
	now := time.Date(2026, 3, 14, 9, 30, 0, 0, time.UTC)
	for _, tc := range []struct {
		c    *Catalog
		t    time.Time
		want string
	}{
		{english, now.Add(30 * time.Second), "just now"},
		{english, now.Add(3 * time.Hour), "in 3 hours"},
		{english, now.Add(-1 * time.Hour), "1 hour ago"},
		{english, now.Add(72 * time.Hour), "in 3 days"},
		{german, now.Add(-72 * time.Hour), "vor 3 Tagen"},
		{german, now.Add(-24 * time.Hour), "vor 24 Stunden"},
		{german, now.Add(90 * 24 * time.Hour), "in 3 Monaten"},
	} {
		if got := tc.c.Relative(tc.t, now); got != tc.want {
			t.Errorf("%s Relative(%v) = %q, want %q", tc.c.Lang, tc.t.Sub(now), got, tc.want)
		}
	}
	if got := english.Date(now); got != "14 Mar 2026, 09:30 UTC" {
		t.Errorf("english date %q", got)
	}
	if got := german.Date(now); got != "14. März 2026, 09:30 UTC" {
		t.Errorf("german date %q", got)
	}
}

func TestWebFieldMessage(t *testing.T) {
	for in, want := range map[string]string{
		"is required":                    "ist erforderlich",
		"must be at most 200 characters": "darf höchstens 200 Zeichen lang sein",
		"must be at least 2.5":           "muss mindestens 2.5 sein",
		"something new":                  "something new",
		"must have the format: two $1 letters, then digits": "muss dieses Format haben: two $1 letters, then digits",
	} {
		if got := german.FieldMessage(in); got != want {
			t.Errorf("german %q = %q, want %q", in, got, want)
		}
	}
	if got := english.FieldMessage("is required"); got != "is required" {
		t.Errorf("english changed the message: %q", got)
	}
}

// modelConstants reads the string constants of package models from its source: those whose
// name starts with prefix, or (typeName != "") those declared with that type. Reading the source
// keeps the list complete when a code is added, without a second list to maintain.
func modelConstants(t *testing.T, prefix, typeName string) []string {
	t.Helper()
	files, err := filepath.Glob(filepath.Join("..", "..", "models", "*.go"))
	if err != nil || len(files) == 0 {
		t.Fatalf("models sources: %v", err)
	}
	var out []string
	fset := token.NewFileSet()
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range f.Decls {
			g, ok := d.(*ast.GenDecl)
			if !ok || g.Tok != token.CONST {
				continue
			}
			for _, spec := range g.Specs {
				vs := spec.(*ast.ValueSpec)
				typed := false
				if id, ok := vs.Type.(*ast.Ident); ok && typeName != "" && id.Name == typeName {
					typed = true
				}
				for i, n := range vs.Names {
					if i >= len(vs.Values) || !(typed || (typeName == "" && strings.HasPrefix(n.Name, prefix))) {
						continue
					}
					lit, ok := vs.Values[i].(*ast.BasicLit)
					if !ok || lit.Kind != token.STRING {
						continue
					}
					v, _ := strconv.Unquote(lit.Value)
					out = append(out, v)
				}
			}
		}
	}
	return out
}

func TestWebHealthSentences(t *testing.T) {
	codes := modelConstants(t, "Health", "")
	if len(codes) < 8 {
		t.Fatalf("found %d health codes in models: %v", len(codes), codes)
	}
	// Announced by the runtime work; described before it lands.
	codes = append(codes, "runtime-answer-ambiguous")
	for _, c := range Supported {
		for _, code := range codes {
			name, text := c.HealthNames[code], c.HealthTexts[code]
			if name == "" || text == "" {
				t.Errorf("%s: health code %q has no name or sentence", c.Lang, code)
			}
			if strings.Contains(name+text, code) {
				t.Errorf("%s: the words for %q repeat the code", c.Lang, code)
			}
		}
		if got := c.HealthText("some-future-code"); got == "" || got != c.HealthUnknownText {
			t.Errorf("%s: unknown code described as %q", c.Lang, got)
		}
		if got := c.HealthName("some-future-code"); got == "" || strings.Contains(got, "some-future-code") {
			t.Errorf("%s: unknown code named %q", c.Lang, got)
		}
	}
}

func TestWebProblemSentences(t *testing.T) {
	codes := modelConstants(t, "", "Code")
	if len(codes) < 20 {
		t.Fatalf("found %d problem codes in models: %v", len(codes), codes)
	}
	for _, c := range Supported {
		seen := map[string]string{}
		for _, code := range codes {
			got := c.Problem(models.Code(code))
			if got == "" || got == c.ProblemUnknown {
				t.Errorf("%s: problem code %q has no sentence", c.Lang, code)
			}
			if strings.Contains(got, code) {
				t.Errorf("%s: the sentence for %q repeats the code", c.Lang, code)
			}
			seen[code] = got
		}
		if seen["terminal"] == seen["revision-conflict"] {
			t.Errorf("%s: different conflicts read the same", c.Lang)
		}
	}
}
