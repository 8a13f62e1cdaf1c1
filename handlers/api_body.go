package handlers

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"reflect"
	"slices"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/labstack/echo/v4"

	"usertasks/models"
	"usertasks/tasks"
)

// decodeBody decodes a JSON object request body strictly into dst, a pointer to a struct:
//   - a body over models.MaxRequestBodyBytes is 413 (echo's body limit usually answers first);
//   - a body that is not JSON, or not one JSON object, is 400 malformed-request;
//   - a member dst does not declare (names match exactly, case included) is 422
//     validation-failed naming it, as is a member of the wrong type or one holding bytes that
//     are not UTF-8.
//
// Required members and value rules are the parse functions' business.
func decodeBody(c echo.Context, dst any) error {
	raw, err := readBody(c)
	if err != nil {
		return err
	}
	return decodeObject(raw, dst, "")
}

// readBody reads a request body of at most models.MaxRequestBodyBytes (413 above).
func readBody(c echo.Context) ([]byte, error) {
	raw, err := io.ReadAll(io.LimitReader(c.Request().Body, models.MaxRequestBodyBytes+1))
	switch {
	case errors.Is(err, echo.ErrStatusRequestEntityTooLarge):
		return nil, echo.ErrStatusRequestEntityTooLarge
	case err != nil:
		return nil, fmt.Errorf("read request body: %w", err)
	case len(raw) > models.MaxRequestBodyBytes:
		return nil, echo.ErrStatusRequestEntityTooLarge
	}
	return raw, nil
}

// decodeObject decodes raw, which must be one JSON object, into dst; prefix names the object
// in field errors ("" for the body, "assignee." for a nested member).
func decodeObject(raw []byte, dst any, prefix string) error {
	var members map[string]json.RawMessage // Unmarshal also refuses anything after the object
	if err := json.Unmarshal(raw, &members); err != nil || members == nil {
		if prefix != "" {
			return models.InvalidField(strings.TrimSuffix(prefix, "."), "must be an object")
		}
		return malformed("the body must be one JSON object")
	}
	known := memberTypes(reflect.TypeOf(dst).Elem())
	var problems []models.FieldError
	for name, value := range members {
		switch {
		case known[name] == nil:
			problems = append(problems, models.FieldError{Field: prefix + name, Message: "is not a known field"})
		case !utf8.Valid(value):
			// Decoding would quietly turn the bytes into U+FFFD; refuse them as the domain does
			// text that is not UTF-8.
			problems = append(problems, models.FieldError{Field: prefix + name, Message: "must be valid UTF-8"})
		}
	}
	if len(problems) > 0 {
		slices.SortFunc(problems, func(a, b models.FieldError) int { return strings.Compare(a.Field, b.Field) })
		return models.Invalid(models.CodeValidationFailed, problems...)
	}
	if err := json.Unmarshal(raw, dst); err != nil {
		var te *json.UnmarshalTypeError
		if errors.As(err, &te) && te.Field != "" {
			// Field is the Go path ("commandFields.expectedRevision"); members are flat, so
			// the member is its last part.
			member := te.Field[strings.LastIndex(te.Field, ".")+1:]
			return models.InvalidField(prefix+member, "must be "+jsonKind(te.Type))
		}
		return malformed("the body could not be decoded")
	}
	return nil
}

// malformed is the 400 of a request that cannot be read at all.
func malformed(message string) error {
	return models.Invalid(models.CodeMalformedRequest, models.FieldError{Field: "body", Message: message})
}

// jsonKind names a Go type the way a client thinks of JSON.
func jsonKind(t reflect.Type) string {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch t.Kind() {
	case reflect.Int, reflect.Int64, reflect.Int32:
		return "an integer"
	case reflect.String:
		return "a string"
	case reflect.Bool:
		return "a boolean"
	case reflect.Struct, reflect.Map:
		return "an object"
	case reflect.Slice:
		return "an array"
	}
	return "of another type"
}

var memberTypeCache sync.Map // reflect.Type → map[string]reflect.Type

// memberTypes maps the member names a struct decodes to their Go types, following embedded
// structs.
func memberTypes(t reflect.Type) map[string]reflect.Type {
	if m, ok := memberTypeCache.Load(t); ok {
		return m.(map[string]reflect.Type)
	}
	m := map[string]reflect.Type{}
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		tag, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		switch {
		case tag == "-":
		case f.Anonymous && tag == "" && f.Type.Kind() == reflect.Struct:
			for n, ft := range memberTypes(f.Type) {
				m[n] = ft
			}
		case tag != "":
			m[tag] = f.Type
		case f.IsExported():
			m[f.Name] = f.Type
		}
	}
	memberTypeCache.Store(t, m)
	return m
}

// commandFields are the members every command body shares.
type commandFields struct {
	ExpectedRevision *int   `json:"expectedRevision"`
	OperationID      string `json:"operationId"`
}

// common checks the shared members: expectedRevision is required (a positive integer), and so
// is operationId where SPEC 3.4 says so (complete, cancel). Everything else about them —
// length, replay, revision — is the service's to judge.
func (f commandFields) common(operationIDRequired bool) (tasks.Common, error) {
	var problems []models.FieldError
	switch {
	case f.ExpectedRevision == nil:
		problems = append(problems, models.FieldError{Field: "expectedRevision", Message: "is required"})
	case *f.ExpectedRevision < 1:
		problems = append(problems, models.FieldError{Field: "expectedRevision", Message: "must be at least 1"})
	}
	if operationIDRequired && strings.TrimSpace(f.OperationID) == "" {
		problems = append(problems, models.FieldError{Field: "operationId", Message: "is required"})
	}
	if len(problems) > 0 {
		return tasks.Common{}, models.Invalid(models.CodeValidationFailed, problems...)
	}
	return tasks.Common{ExpectedRevision: *f.ExpectedRevision, OperationID: f.OperationID}, nil
}

// parseCommon reads the body of a command that has no members of its own (claim,
// retry-resolution): operationId is optional.
func parseCommon(f commandFields) (tasks.Common, error) {
	return f.common(false)
}
