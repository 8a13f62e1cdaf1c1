package forms

import (
	"encoding/json"
	"errors"
	"reflect"
	"testing"

	"usertasks/models"
)

// fullSchema declares one property of every supported kind.
const fullSchema = `{
	"$schema": "https://json-schema.org/draft/2020-12/schema",
	"type": "object",
	"title": "Expense approval",
	"properties": {
		"comment":  {"type": "string", "maxLength": 200, "x-ui": {"widget": "textarea", "order": 9, "help": "Why?"}},
		"amount":   {"type": "number", "minimum": 0, "maximum": 1000, "x-ui": {"label": "Amount (EUR)", "order": 1}},
		"count":    {"type": "integer", "exclusiveMinimum": 0, "exclusiveMaximum": 10, "multipleOf": 1},
		"approved": {"type": "boolean", "x-ui": {"order": 0}},
		"level":    {"type": "string", "enum": ["low", "high"]},
		"channel":  {"type": "string", "enum": ["mail", "phone"], "x-ui": {"widget": "radio"}},
		"dueOn":    {"type": "string", "format": "date"},
		"meetAt":   {"type": "string", "format": "date-time"},
		"email":    {"type": "string", "format": "email"},
		"website":  {"type": "string", "format": "uri"},
		"code":     {"type": "string", "minLength": 3, "maxLength": 5, "pattern": "^[A-Z]+$"},
		"iban":     {"type": "string", "x-ui": {"masked": true}},
		"pin":      {"type": "integer", "x-ui": {"masked": true}}
	},
	"required": ["approved", "amount"]
}`

func mustParse(t *testing.T, schema string) *Form {
	t.Helper()
	f, err := Parse(json.RawMessage(schema))
	if err != nil {
		t.Fatalf("Parse: %v", err)
	}
	return f
}

// requireInvalid checks that err is a models.ValidationError with code and exactly want.
func requireInvalid(t *testing.T, err error, code models.Code, want []models.FieldError) {
	t.Helper()
	if !errors.Is(err, models.ErrInvalid) {
		t.Fatalf("err = %v, want one wrapping models.ErrInvalid", err)
	}
	var ve *models.ValidationError
	if !errors.As(err, &ve) {
		t.Fatalf("err = %T, want *models.ValidationError", err)
	}
	if ve.Code != code {
		t.Fatalf("code = %q, want %q (fields %+v)", ve.Code, code, ve.Fields)
	}
	if want != nil && !reflect.DeepEqual(ve.Fields, want) {
		t.Fatalf("fields = %+v\nwant     %+v", ve.Fields, want)
	}
}

func ptr[T any](v T) *T { return &v }
