package storekit

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"time"

	"usertasks/models"
)

// cursorVersion is the version of the cursor format; a cursor of another version is unreadable.
// Version 2 binds the filters (FilterDigest).
const cursorVersion = 2

// maxCursorLength bounds what DecodeCursor accepts: a title (512 bytes, escaped as JSON) plus
// the fixed fields, base64url encoded, stays well below it.
const maxCursorLength = 4096

// ValueKind is the type of a sort's values, as a cursor carries them.
type ValueKind int

// The kinds of sort values.
const (
	KindTime ValueKind = iota + 1
	KindInt
	KindText
)

// Sort is how a sort key orders tasks, in every store: the kind of its values, whether a task
// may have none (nullable sorts put those last in both directions), the column (the document
// field of the same name) it orders by, then by id, and the value of a row, which a cursor
// records.
type Sort struct {
	Kind     ValueKind
	Nullable bool
	Column   string
	Value    func(r *TaskRow) SortValue
}

// Sorts are the list sorts; a key missing here is not a sort.
var Sorts = map[models.SortKey]Sort{
	models.SortCreated: {Kind: KindTime, Column: "created_at",
		Value: func(r *TaskRow) SortValue { return TimeValue(&r.CreatedAt) }},
	models.SortDue: {Kind: KindTime, Nullable: true, Column: "due_at",
		Value: func(r *TaskRow) SortValue { return TimeValue(r.DueAt) }},
	models.SortPriority: {Kind: KindInt, Column: "priority",
		Value: func(r *TaskRow) SortValue { return SortValue{Int: r.Priority} }},
	models.SortTitle: {Kind: KindText, Column: "title",
		Value: func(r *TaskRow) SortValue { return SortValue{Text: r.Title} }},
	models.SortUpdated: {Kind: KindTime, Column: "updated_at",
		Value: func(r *TaskRow) SortValue { return TimeValue(&r.UpdatedAt) }},
	models.SortCompleted: {Kind: KindTime, Nullable: true, Column: "completed_at",
		Value: func(r *TaskRow) SortValue { return TimeValue(r.CompletedAt) }},
}

// SortValue is the typed sort value a cursor carries; exactly one field is meaningful, chosen
// by the sort's kind, and none when Null is set.
type SortValue struct {
	Null bool
	Time time.Time
	Int  int
	Text string
}

// TimeValue is the sort value of a time, Null when t is nil.
func TimeValue(t *time.Time) SortValue {
	if t == nil {
		return SortValue{Null: true}
	}
	return SortValue{Time: t.UTC()}
}

// cursor is the position after the last row of a page: the row's sort value and id. It names
// the sort and direction it was made for, so it is never applied to another order, and the
// digest of the filters, so it is never applied to another list.
//
// On the wire it is the base64url (unpadded) encoding of a small JSON object. It is opaque
// but not secret: a forged cursor only moves the caller's position inside rows the query
// authorizes anyway.
type cursor struct {
	Version int            `json:"v"`
	Sort    models.SortKey `json:"sort"`
	Desc    bool           `json:"desc"`
	Filters string         `json:"f"` // FilterDigest of the query
	// Null reports that the row's sort value was NULL (due and completed sorts); Value is
	// then absent.
	Null  bool            `json:"null,omitempty"`
	Value json.RawMessage `json:"value,omitempty"`
	ID    string          `json:"id"`
}

// Keyset is a list's order as its cursors name it: the sort key, the direction, and the kind
// of the sort's values (Nullable: a row may have none). The task list's keysets are Sorts';
// the in-app notification list has its own (NotificationKeyset). One wire format serves both.
type Keyset struct {
	Sort     models.SortKey
	Desc     bool
	Kind     ValueKind
	Nullable bool
}

// keysetOf is the keyset of the task list's sort key in the given direction (Kind 0 for a key
// that is not a sort).
func keysetOf(key models.SortKey, desc bool) Keyset {
	col := Sorts[key]
	return Keyset{Sort: key, Desc: desc, Kind: col.Kind, Nullable: col.Nullable}
}

// EncodeCursor renders the position after a row with sort value v and id, in the list whose
// filters have the given digest.
func EncodeCursor(key models.SortKey, desc bool, filters string, v SortValue, id string) (string, error) {
	return keysetOf(key, desc).Encode(filters, v, id)
}

// DecodeCursor reads a cursor made for sort key in the given direction, in the list whose
// filters have the given digest, and returns its sort value and row id. Anything else (not
// base64url, not the JSON shape, another version, another sort, direction or filters, a value
// of the wrong type) is a malformed request.
func DecodeCursor(raw string, key models.SortKey, desc bool, filters string) (SortValue, string, error) {
	return keysetOf(key, desc).Decode(raw, filters)
}

// Encode renders the position after a row with sort value v and id, in the list of this order
// whose filters have the given digest.
func (k Keyset) Encode(filters string, v SortValue, id string) (string, error) {
	c := cursor{Version: cursorVersion, Sort: k.Sort, Desc: k.Desc, Filters: filters, Null: v.Null, ID: id}
	if !v.Null {
		var raw any
		switch k.Kind {
		case KindTime:
			raw = v.Time.UTC().Format(time.RFC3339Nano)
		case KindInt:
			raw = v.Int
		case KindText:
			raw = v.Text
		default:
			return "", fmt.Errorf("storekit: cursor for unknown sort %q", k.Sort)
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

// Decode reads a cursor made for this order, in the list whose filters have the given digest,
// and returns its sort value and row id; anything else is a malformed request (DecodeCursor).
func (k Keyset) Decode(raw, filters string) (SortValue, string, error) {
	bad := func(msg string) (SortValue, string, error) {
		return SortValue{}, "", models.Invalid(models.CodeMalformedRequest, models.FieldError{Field: "cursor", Message: msg})
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
	if c.Sort != k.Sort || c.Desc != k.Desc {
		return bad("the cursor belongs to another sort or direction")
	}
	if c.Filters != filters {
		return bad("the cursor belongs to other filters")
	}
	if c.ID == "" || len(c.ID) > 36 {
		return bad("the cursor names no row")
	}
	if k.Kind == 0 {
		return bad("the cursor belongs to an unknown sort")
	}
	var v SortValue
	switch {
	case c.Null:
		if !k.Nullable || len(c.Value) != 0 {
			return bad("the cursor value is invalid")
		}
		v.Null = true
	case len(c.Value) == 0:
		return bad("the cursor carries no value")
	case k.Kind == KindTime:
		var s string
		if json.Unmarshal(c.Value, &s) != nil {
			return bad("the cursor value is invalid")
		}
		t, err := time.Parse(time.RFC3339Nano, s)
		if err != nil {
			return bad("the cursor value is invalid")
		}
		v.Time = t.UTC()
	case k.Kind == KindInt:
		if json.Unmarshal(c.Value, &v.Int) != nil {
			return bad("the cursor value is invalid")
		}
	default:
		if json.Unmarshal(c.Value, &v.Text) != nil {
			return bad("the cursor value is invalid")
		}
	}
	return v, c.ID, nil
}
