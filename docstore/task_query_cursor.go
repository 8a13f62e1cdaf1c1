package docstore

import (
	"bytes"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"time"

	"usertasks/models"
)

// The list cursor is the SQL store's (repository/cursor.go, cursor_filter.go), byte for byte: a
// page cursor made by either store reads the same, and a cursor made for one sort, direction or
// set of filters is refused for another. The document store cannot import repository (same
// floor), so the format is repeated here: change both together.

// cursorVersion is the version of the cursor format (2 binds the filters).
const cursorVersion = 2

// maxCursorLength bounds what decodeCursor accepts.
const maxCursorLength = 4096

type cursor struct {
	Version int             `json:"v"`
	Sort    models.SortKey  `json:"sort"`
	Desc    bool            `json:"desc"`
	Filters string          `json:"f"`
	Null    bool            `json:"null,omitempty"`
	Value   json.RawMessage `json:"value,omitempty"`
	ID      string          `json:"id"`
}

// sortValue is the typed sort value a cursor carries: one field, chosen by the sort's kind,
// none when null is set.
type sortValue struct {
	null bool
	time time.Time
	int  int
	text string
}

// bson is the value as compared in a query filter.
func (v sortValue) bson(kind valueKind) any {
	switch kind {
	case kindTime:
		return v.time
	case kindInt:
		return v.int
	}
	return v.text
}

func encodeCursor(key models.SortKey, desc bool, filters string, v sortValue, id string) (string, error) {
	c := cursor{Version: cursorVersion, Sort: key, Desc: desc, Filters: filters, Null: v.null, ID: id}
	if !v.null {
		var raw any
		switch sortFields[key].kind {
		case kindTime:
			raw = v.time.UTC().Format(time.RFC3339Nano)
		case kindInt:
			raw = v.int
		case kindText:
			raw = v.text
		default:
			return "", fmt.Errorf("docstore: cursor for unknown sort %q", key)
		}
		b, err := json.Marshal(raw)
		if err != nil {
			return "", err
		}
		c.Value = b
	}
	b, err := json.Marshal(c)
	if err != nil {
		return "", err
	}
	return base64.RawURLEncoding.EncodeToString(b), nil
}

// decodeCursor reads a cursor made for sort key in the given direction, in the list whose
// filters have the given digest; anything else is a malformed request.
func decodeCursor(raw string, key models.SortKey, desc bool, filters string) (sortValue, string, error) {
	bad := func(msg string) (sortValue, string, error) {
		return sortValue{}, "", models.Invalid(models.CodeMalformedRequest, models.FieldError{Field: "cursor", Message: msg})
	}
	if len(raw) > maxCursorLength {
		return bad("the cursor is too long")
	}
	b, err := base64.RawURLEncoding.DecodeString(raw)
	if err != nil {
		return bad("the cursor is unreadable")
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	var c cursor
	if err := dec.Decode(&c); err != nil || dec.More() {
		return bad("the cursor is unreadable")
	}
	if c.Version != cursorVersion {
		return bad("the cursor is of an unknown version")
	}
	if c.Sort != key || c.Desc != desc {
		return bad("the cursor belongs to another sort or direction")
	}
	if c.Filters != filters {
		return bad("the cursor belongs to other filters")
	}
	if c.ID == "" || len(c.ID) > 36 {
		return bad("the cursor names no row")
	}
	col, ok := sortFields[key]
	if !ok {
		return bad("the cursor belongs to an unknown sort")
	}
	var v sortValue
	switch {
	case c.Null:
		if !col.nullable || len(c.Value) != 0 {
			return bad("the cursor value is invalid")
		}
		v.null = true
	case len(c.Value) == 0:
		return bad("the cursor carries no value")
	case col.kind == kindTime:
		var s string
		if json.Unmarshal(c.Value, &s) != nil {
			return bad("the cursor value is invalid")
		}
		t, err := time.Parse(time.RFC3339Nano, s)
		if err != nil {
			return bad("the cursor value is invalid")
		}
		v.time = t.UTC()
	case col.kind == kindInt:
		if json.Unmarshal(c.Value, &v.int) != nil {
			return bad("the cursor value is invalid")
		}
	default:
		if json.Unmarshal(c.Value, &v.text) != nil {
			return bad("the cursor value is invalid")
		}
	}
	return v, c.ID, nil
}

// filterDigest names the rows a list selects apart from the page position, as the SQL store's.
func filterDigest(f models.TaskFilter) string {
	statuses := slices.Compact(slices.Sorted(slices.Values(statusStrings(f.Statuses))))
	codes := slices.Compact(slices.Sorted(slices.Values(f.HealthCodes)))
	when := func(t *time.Time) string {
		if t == nil {
			return ""
		}
		return t.UTC().Format(time.RFC3339Nano)
	}
	num := func(n *int) any {
		if n == nil {
			return nil
		}
		return *n
	}
	b, _ := json.Marshal([]any{
		f.Scope, statuses, num(f.PriorityFrom), num(f.PriorityTo), f.Due, when(f.DueFrom), when(f.DueTo),
		f.WorkflowDefinitionID, f.WorkflowInstanceID, f.Reference, f.TaskType, models.NormalizeTag(f.Tag),
		strings.ToLower(strings.TrimSpace(f.Search)), codes, f.HealthSeverity,
		f.Assignee.Unassigned, f.Assignee.Participant.Provider, f.Assignee.Participant.Type, f.Assignee.Participant.ID,
	})
	sum := sha256.Sum256(b)
	return base64.RawURLEncoding.EncodeToString(sum[:12])
}

func statusStrings(ss []models.Status) []string {
	out := make([]string, len(ss))
	for i, st := range ss {
		out[i] = string(st)
	}
	return out
}
