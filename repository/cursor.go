package repository

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"time"

	"usertasks/models"
)

// cursorVersion is the version of the cursor format; a cursor of another version is unreadable.
// Version 2 binds the filters (filterDigest).
const cursorVersion = 2

// maxCursorLength bounds what decodeCursor accepts: a title (512 bytes, escaped as JSON) plus
// the fixed fields, base64url encoded, stays well below it.
const maxCursorLength = 4096

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
	Filters string         `json:"f"` // filterDigest of the query
	// Null reports that the row's sort value was NULL (due and completed sorts); Value is
	// then absent.
	Null  bool            `json:"null,omitempty"`
	Value json.RawMessage `json:"value,omitempty"`
	ID    string          `json:"id"`
}

// sortValue is the typed sort value a cursor carries; exactly one field is meaningful, chosen
// by the sort's kind, and none when null is set.
type sortValue struct {
	null bool
	time time.Time
	int  int
	text string
}

// encodeCursor renders the position after a row with sort value v and id, in the list whose
// filters have the given digest.
func encodeCursor(key models.SortKey, desc bool, filters string, v sortValue, id string) (string, error) {
	c := cursor{Version: cursorVersion, Sort: key, Desc: desc, Filters: filters, Null: v.null, ID: id}
	if !v.null {
		var raw any
		switch sortColumns[key].kind {
		case kindTime:
			raw = v.time.UTC().Format(time.RFC3339Nano)
		case kindInt:
			raw = v.int
		case kindText:
			raw = v.text
		default:
			return "", fmt.Errorf("repository: cursor for unknown sort %q", key)
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
// filters have the given digest. Anything else (not base64url, not the JSON shape, another
// version, another sort, direction or filters, a value of the wrong type) is a malformed
// request.
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
	col, ok := sortColumns[key]
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
