package repository

import (
	"encoding/base64"
	"strings"
	"testing"
	"time"

	"usertasks/migrations"
	"usertasks/models"
)

func TestCursorRoundTrip(t *testing.T) {
	at := time.Date(2030, 6, 12, 10, 11, 12, 123456000, time.FixedZone("CEST", 2*3600))
	cases := []struct {
		name string
		key  models.SortKey
		desc bool
		v    sortValue
	}{
		{"CreatedTime", models.SortCreated, true, sortValue{time: at}},
		{"DueNull", models.SortDue, false, sortValue{null: true}},
		{"DueTime", models.SortDue, true, sortValue{time: at}},
		{"Priority", models.SortPriority, false, sortValue{int: 0}},
		{"TitleUnicodeAndQuotes", models.SortTitle, true, sortValue{text: `Ünïcode "quoted" 100%_[x]`}},
		{"CompletedNull", models.SortCompleted, true, sortValue{null: true}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			raw, err := encodeCursor(c.key, c.desc, "digest", c.v, "0190a000-0000-7000-8000-000000000001")
			if err != nil {
				t.Fatalf("encode: %v", err)
			}
			if strings.ContainsAny(raw, "+/=") {
				t.Fatalf("cursor %q is not unpadded base64url", raw)
			}
			got, id, err := decodeCursor(raw, c.key, c.desc, "digest")
			if err != nil {
				t.Fatalf("decode: %v", err)
			}
			want := c.v
			if !want.null && sortColumns[c.key].kind == kindTime {
				want.time = want.time.UTC()
			}
			if got != want || id != "0190a000-0000-7000-8000-000000000001" {
				t.Fatalf("got %+v id %q, want %+v", got, id, want)
			}
			if !got.time.IsZero() && got.time.Location() != time.UTC {
				t.Fatalf("decoded time %v is not UTC", got.time)
			}
		})
	}
}

func TestCursorMalformed(t *testing.T) {
	valid, err := encodeCursor(models.SortTitle, false, "digest", sortValue{text: "a"}, "id-1")
	if err != nil {
		t.Fatal(err)
	}
	enc := func(json string) string { return base64.RawURLEncoding.EncodeToString([]byte(json)) }
	cases := []struct {
		name string
		raw  string
		key  models.SortKey
		desc bool
	}{
		{"NotBase64", "%%%not-base64%%%", models.SortTitle, false},
		{"NotJSON", enc("hello"), models.SortTitle, false},
		{"TrailingData", enc(`{"v":2,"f":"digest","sort":"title","desc":false,"value":"a","id":"x"} {}`), models.SortTitle, false},
		{"UnknownField", enc(`{"v":2,"f":"digest","sort":"title","desc":false,"value":"a","id":"x","extra":1}`), models.SortTitle, false},
		{"OtherVersion", enc(`{"v":1,"f":"digest","sort":"title","desc":false,"value":"a","id":"x"}`), models.SortTitle, false},
		{"OtherFilters", enc(`{"v":2,"f":"other","sort":"title","desc":false,"value":"a","id":"x"}`), models.SortTitle, false},
		{"NoFilters", enc(`{"v":2,"sort":"title","desc":false,"value":"a","id":"x"}`), models.SortTitle, false},
		{"OtherSort", valid, models.SortCreated, false},
		{"OtherDirection", valid, models.SortTitle, true},
		{"NoID", enc(`{"v":2,"f":"digest","sort":"title","desc":false,"value":"a","id":""}`), models.SortTitle, false},
		{"NoValue", enc(`{"v":2,"f":"digest","sort":"title","desc":false,"id":"x"}`), models.SortTitle, false},
		{"WrongValueType", enc(`{"v":2,"f":"digest","sort":"priority","desc":false,"value":"high","id":"x"}`), models.SortPriority, false},
		{"BadTime", enc(`{"v":2,"f":"digest","sort":"created","desc":true,"value":"yesterday","id":"x"}`), models.SortCreated, true},
		{"NullOnNonNullableSort", enc(`{"v":2,"f":"digest","sort":"title","desc":false,"null":true,"id":"x"}`), models.SortTitle, false},
		{"NullWithValue", enc(`{"v":2,"f":"digest","sort":"due","desc":false,"null":true,"value":"2030-01-01T00:00:00Z","id":"x"}`), models.SortDue, false},
		{"TooLong", strings.Repeat("A", maxCursorLength+1), models.SortTitle, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, _, err := decodeCursor(c.raw, c.key, c.desc, "digest")
			if got := models.ErrorCode(err); got != models.CodeMalformedRequest {
				t.Fatalf("decode %q: error %v has code %q, want %q", c.raw, err, got, models.CodeMalformedRequest)
			}
		})
	}
}

func TestEscapeLike(t *testing.T) {
	cases := []struct {
		needle  string
		dialect migrations.Dialect
		want    string
	}{
		{"plain", migrations.SQLite, "plain"},
		{"100%", migrations.Postgres, "100!%"},
		{"a_b", migrations.MySQL, "a!_b"},
		{"wow!", migrations.SQLServer, "wow!!"},
		{"[x]", migrations.SQLServer, "![x]"},
		{"[x]", migrations.Oracle, "[x]"},
		{`back\slash`, migrations.MySQL, `back\slash`},
	}
	for _, c := range cases {
		if got := escapeLike(c.needle, c.dialect); got != c.want {
			t.Errorf("escapeLike(%q, %s) = %q, want %q", c.needle, c.dialect, got, c.want)
		}
	}
}

// TestFilterDigest checks that the digest a cursor carries tells every filter apart and
// ignores what does not change the list (order of statuses and codes, the page size).
func TestFilterDigest(t *testing.T) {
	at := time.Date(2030, 1, 2, 3, 4, 5, 0, time.UTC)
	base := models.TaskFilter{Scope: models.ScopeAll, Sort: models.SortCreated,
		Statuses: []models.Status{models.StatusAvailable, models.StatusAssigned}, HealthCodes: []string{"a", "b"}}
	same := base
	same.Statuses = []models.Status{models.StatusAssigned, models.StatusAvailable, models.StatusAssigned}
	same.HealthCodes = []string{"b", "a"}
	same.Limit, same.IncludeTotal = 7, true
	if filterDigest(same) != filterDigest(base) {
		t.Fatal("the order of statuses or codes, or the page size, changed the digest")
	}
	n := 5
	for name, change := range map[string]func(*models.TaskFilter){
		"Scope":          func(f *models.TaskFilter) { f.Scope = models.ScopeNeedsAttention },
		"Status":         func(f *models.TaskFilter) { f.Statuses = f.Statuses[:1] },
		"HealthCode":     func(f *models.TaskFilter) { f.HealthCodes = []string{"a"} },
		"HealthSeverity": func(f *models.TaskFilter) { f.HealthSeverity = models.SeverityBlocking },
		"PriorityFrom":   func(f *models.TaskFilter) { f.PriorityFrom = &n },
		"PriorityTo":     func(f *models.TaskFilter) { f.PriorityTo = &n },
		"Due":            func(f *models.TaskFilter) { f.Due = models.DueOverdue },
		"DueFrom":        func(f *models.TaskFilter) { f.DueFrom = &at },
		"DueTo":          func(f *models.TaskFilter) { f.DueTo = &at },
		"Workflow":       func(f *models.TaskFilter) { f.WorkflowDefinitionID = "w" },
		"Instance":       func(f *models.TaskFilter) { f.WorkflowInstanceID = "w" },
		"Reference":      func(f *models.TaskFilter) { f.Reference = "w" },
		"TaskType":       func(f *models.TaskFilter) { f.TaskType = "w" },
		"Tag":            func(f *models.TaskFilter) { f.Tag = "w" },
		"Search":         func(f *models.TaskFilter) { f.Search = "w" },
		"Unassigned":     func(f *models.TaskFilter) { f.Assignee.Unassigned = true },
		"Assignee": func(f *models.TaskFilter) {
			f.Assignee.Participant = models.ParticipantRef{Provider: "default", Type: models.UserParticipant, ID: "ann"}
		},
	} {
		f := base
		change(&f)
		if filterDigest(f) == filterDigest(base) {
			t.Errorf("%s: another filter, the same digest", name)
		}
	}
}
