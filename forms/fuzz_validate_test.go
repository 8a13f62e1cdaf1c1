package forms

import (
	"bytes"
	"encoding/json"
	"errors"
	"net/url"
	"testing"

	"usertasks/models"
)

// FuzzValidate parses a schema and, when it is a form, checks completion data against it — data
// sent as JSON (the API) and as form values (the pages) — and shows, reveals and keeps masked
// fields of it. A refusal is only ever a models.ValidationError of its documented codes; what
// Validate accepts is well-formed JSON it accepts again unchanged.
func FuzzValidate(f *testing.F) {
	f.Add([]byte(fullSchema), []byte(`{"approved":true,"amount":12.5,"count":3,"pin":1.2e1,"iban":"DE00"}`), "approved=on&amount=12.5&dueOn=2024-02-29&meetAt=2024-01-31T10:00&code=ABC")
	f.Add([]byte(fullSchema), []byte(`{"approved":"yes","amount":1e400,"count":9007199254740993,"email":"\u202e@x","website":" "}`), "amount=1e999&count=-0&pin=%00&approved=false")
	f.Add([]byte(`{"type":"object","properties":{"n":{"type":"string","x-ui":{"masked":true,"order":1}}},"additionalProperties":true}`), []byte(`{"n":"  ","extra":[1,{"a":null}]}`), "n=%E2%80%AE")
	f.Add([]byte(`{"type":"object","properties":{"x":{"$ref":"#/y"}}}`), []byte(`null`), "")
	f.Add([]byte(`{"type":"object","properties":{"p":{"type":"string","pattern":"(a+)+$","format":"date-time"}},"required":["p","q"]}`), []byte(`{"p":"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaa!"}`), "p=2024-01-31T10:00:61")
	f.Add([]byte(`[]`), []byte(`{}`), "")

	f.Fuzz(func(t *testing.T, schema, data []byte, formData string) {
		form, err := Parse(schema)
		if err != nil {
			wantRefusal(t, "Parse", err, models.CodeValidationFailed, models.CodePayloadTooLarge)
			return
		}
		form.Fields()
		checkValidate(t, form, data)
		if values, err := url.ParseQuery(formData); err == nil {
			checkValidate(t, form, form.ParseFormValues(values))
		}
		form.Masked(data)
		kept := form.KeepMasked(data, data)
		if _, err := form.WithoutMasked(kept); err == nil {
			for _, fl := range form.Fields() {
				if _, err := form.Reveal(kept, fl.Key); err != nil {
					wantRefusal(t, "Reveal", err, models.CodeValidationFailed)
				}
			}
		}
	})
}

// checkValidate validates data and, when accepted, validates the normalized data again.
func checkValidate(t *testing.T, form *Form, data []byte) {
	t.Helper()
	out, err := form.Validate(data)
	if err != nil {
		wantRefusal(t, "Validate", err, models.CodeFormInvalid, models.CodePayloadTooLarge)
		return
	}
	if !json.Valid(out) {
		t.Fatalf("Validate(%q) = %q, not well-formed JSON", data, out)
	}
	again, err := form.Validate(out)
	if err != nil || !bytes.Equal(again, out) {
		t.Fatalf("Validate(%q) = %q, then %q, %v", data, out, again, err)
	}
}

// wantRefusal fails unless err is a models.ValidationError with one of codes.
func wantRefusal(t *testing.T, op string, err error, codes ...models.Code) {
	t.Helper()
	var ve *models.ValidationError
	if !errors.As(err, &ve) {
		t.Fatalf("%s: %v (%T) is not a validation error", op, err, err)
	}
	for _, c := range codes {
		if ve.Code == c {
			return
		}
	}
	t.Fatalf("%s: code %q, want one of %v (%v)", op, ve.Code, codes, err)
}
