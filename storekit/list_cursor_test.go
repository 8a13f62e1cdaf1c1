package storekit

import (
	"encoding/base64"
	"strings"
	"testing"
	"time"

	"usertasks/models"
)

func TestCursorRoundTrip(t *testing.T) {
	at := time.Date(2030, 6, 12, 10, 11, 12, 123456000, time.FixedZone("CEST", 2*3600))
	cases := []struct {
		name string
		key  models.SortKey
		desc bool
		v    SortValue
	}{
		{"CreatedTime", models.SortCreated, true, SortValue{Time: at}},
		{"DueNull", models.SortDue, false, SortValue{Null: true}},
		{"DueTime", models.SortDue, true, SortValue{Time: at}},
		{"Priority", models.SortPriority, false, SortValue{Int: 0}},
		{"TitleUnicodeAndQuotes", models.SortTitle, true, SortValue{Text: `Ünïcode "quoted" 100%_[x]`}},
		{"CompletedNull", models.SortCompleted, true, SortValue{Null: true}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			raw, err := EncodeCursor(c.key, c.desc, "digest", c.v, "0190a000-0000-7000-8000-000000000001")
			if err != nil {
				t.Fatalf("encode: %v", err)
			}
			if strings.ContainsAny(raw, "+/=") {
				t.Fatalf("cursor %q is not unpadded base64url", raw)
			}
			got, id, err := DecodeCursor(raw, c.key, c.desc, "digest")
			if err != nil {
				t.Fatalf("decode: %v", err)
			}
			want := c.v
			if !want.Null && Sorts[c.key].Kind == KindTime {
				want.Time = want.Time.UTC()
			}
			if got != want || id != "0190a000-0000-7000-8000-000000000001" {
				t.Fatalf("got %+v id %q, want %+v", got, id, want)
			}
			if !got.Time.IsZero() && got.Time.Location() != time.UTC {
				t.Fatalf("decoded time %v is not UTC", got.Time)
			}
		})
	}
}

func TestCursorMalformed(t *testing.T) {
	valid, err := EncodeCursor(models.SortTitle, false, "digest", SortValue{Text: "a"}, "id-1")
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
			_, _, err := DecodeCursor(c.raw, c.key, c.desc, "digest")
			if got := models.ErrorCode(err); got != models.CodeMalformedRequest {
				t.Fatalf("decode %q: error %v has code %q, want %q", c.raw, err, got, models.CodeMalformedRequest)
			}
		})
	}
}

// TestCursorGolden pins the cursor's bytes: every store makes and reads exactly these, so a
// page cursor of the SQL store reads in the document store and back. A change here breaks
// the cursors callers hold and every store at once.
func TestCursorGolden(t *testing.T) {
	n := 5
	f := models.TaskFilter{Scope: models.ScopeAll, Statuses: []models.Status{models.StatusAvailable, models.StatusAssigned},
		PriorityFrom: &n, Search: " Report ", Tag: "Urgent"}
	const digest = "qGFfS72si2VacUP4"
	if got := FilterDigest(f); got != digest {
		t.Fatalf("FilterDigest = %q, want %q", got, digest)
	}
	at := time.Date(2030, 6, 12, 10, 11, 12, 123456000, time.UTC)
	cases := []struct {
		name string
		key  models.SortKey
		desc bool
		v    SortValue
		id   string
		want string
	}{
		{"DueTime", models.SortDue, true, SortValue{Time: at}, "0190a000-0000-7000-8000-000000000001",
			"eyJ2IjoyLCJzb3J0IjoiZHVlIiwiZGVzYyI6dHJ1ZSwiZiI6InFHRmZTNzJzaTJWYWNVUDQiLCJ2YWx1ZSI6IjIwMzAtMDYtMTJUMTA6MTE6MTIuMTIzNDU2WiIsImlkIjoiMDE5MGEwMDAtMDAwMC03MDAwLTgwMDAtMDAwMDAwMDAwMDAxIn0"},
		{"CompletedNull", models.SortCompleted, false, SortValue{Null: true}, "0190a000-0000-7000-8000-000000000002",
			"eyJ2IjoyLCJzb3J0IjoiY29tcGxldGVkIiwiZGVzYyI6ZmFsc2UsImYiOiJxR0ZmUzcyc2kyVmFjVVA0IiwibnVsbCI6dHJ1ZSwiaWQiOiIwMTkwYTAwMC0wMDAwLTcwMDAtODAwMC0wMDAwMDAwMDAwMDIifQ"},
		{"Title", models.SortTitle, false, SortValue{Text: `Ünïcode "q"`}, "0190a000-0000-7000-8000-000000000003",
			"eyJ2IjoyLCJzb3J0IjoidGl0bGUiLCJkZXNjIjpmYWxzZSwiZiI6InFHRmZTNzJzaTJWYWNVUDQiLCJ2YWx1ZSI6IsOcbsOvY29kZSBcInFcIiIsImlkIjoiMDE5MGEwMDAtMDAwMC03MDAwLTgwMDAtMDAwMDAwMDAwMDAzIn0"},
		{"Priority", models.SortPriority, true, SortValue{Int: 42}, "0190a000-0000-7000-8000-000000000004",
			"eyJ2IjoyLCJzb3J0IjoicHJpb3JpdHkiLCJkZXNjIjp0cnVlLCJmIjoicUdGZlM3MnNpMlZhY1VQNCIsInZhbHVlIjo0MiwiaWQiOiIwMTkwYTAwMC0wMDAwLTcwMDAtODAwMC0wMDAwMDAwMDAwMDQifQ"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, err := EncodeCursor(c.key, c.desc, digest, c.v, c.id)
			if err != nil || got != c.want {
				t.Fatalf("EncodeCursor = %q (%v), want %q", got, err, c.want)
			}
			v, id, err := DecodeCursor(c.want, c.key, c.desc, FilterDigest(f))
			if err != nil || v != c.v || id != c.id {
				t.Fatalf("DecodeCursor = %+v %q (%v), want %+v %q", v, id, err, c.v, c.id)
			}
		})
	}
}
