package forms

import (
	"encoding/json"
	"errors"
	"reflect"
	"testing"

	"usertasks/models"
)

func TestMasked(t *testing.T) {
	f := mustParse(t, fullSchema)

	t.Run("OK", func(t *testing.T) {
		got := f.Masked(json.RawMessage(`{"amount":12.5,"approved":true,"iban":"DE00 1234","comment":"fine"}`))
		want := map[string]any{
			"amount": json.Number("12.5"), "approved": true, "comment": "fine",
			"iban": nil, "pin": nil, // masked: always present, never a value
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("got  %#v\nwant %#v", got, want)
		}
	})

	t.Run("UndeclaredKeysLeftOut", func(t *testing.T) {
		got := f.Masked(json.RawMessage(`{"other":1}`))
		if _, ok := got["other"]; ok {
			t.Fatalf("got %v, want undeclared keys left out", got)
		}
	})

	t.Run("NotAnObject", func(t *testing.T) {
		got := f.Masked(json.RawMessage(`[1]`))
		want := map[string]any{"iban": nil, "pin": nil}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("got %#v, want %#v", got, want)
		}
	})
}

func TestReveal(t *testing.T) {
	f := mustParse(t, fullSchema)
	data := json.RawMessage(`{"amount":1,"approved":true,"iban":"DE00 1234","pin":1234}`)

	t.Run("OK", func(t *testing.T) {
		for _, tc := range []struct {
			key  string
			want any
		}{
			{"iban", "DE00 1234"},
			{"pin", json.Number("1234")},
		} {
			got, err := f.Reveal(data, tc.key)
			if err != nil || !reflect.DeepEqual(got, tc.want) {
				t.Fatalf("Reveal(%s) = %#v, %v; want %#v", tc.key, got, err, tc.want)
			}
		}
	})

	t.Run("NoValue", func(t *testing.T) {
		got, err := f.Reveal(json.RawMessage(`{"amount":1}`), "iban")
		if err != nil || got != nil {
			t.Fatalf("got %#v, %v; want nil, nil", got, err)
		}
	})

	t.Run("ErrUnknownKey", func(t *testing.T) {
		_, err := f.Reveal(data, "nope")
		requireInvalid(t, err, models.CodeValidationFailed, []models.FieldError{{Field: "fieldKey", Message: "is not a field of this form"}})
	})

	t.Run("ErrNotMasked", func(t *testing.T) {
		_, err := f.Reveal(data, "amount")
		requireInvalid(t, err, models.CodeValidationFailed, []models.FieldError{{Field: "fieldKey", Message: "is not a masked field"}})
	})

	t.Run("ErrCorruptData", func(t *testing.T) {
		_, err := f.Reveal(json.RawMessage(`{`), "iban")
		if err == nil || errors.Is(err, models.ErrInvalid) {
			t.Fatalf("err = %v, want an internal error", err)
		}
	})
}

func TestWithoutMasked(t *testing.T) {
	f := mustParse(t, fullSchema)
	tests := []struct {
		name, data, want string
	}{
		{"OK", `{"amount":12.50,"iban":"DE00 1234","pin":"0000","comment":"fine"}`, `{"amount":12.50,"comment":"fine"}`},
		// Members the form does not declare are task data like any other: kept, nested or not.
		{"UndeclaredKept", `{"other":{"deep":[1,2]},"iban":"DE00"}`, `{"other":{"deep":[1,2]}}`},
		// A later duplicate or an escaped spelling of the key is the same member to a JSON reader.
		{"DuplicateKey", `{"iban":"x","iban":"DE00 1234"}`, `{}`},
		{"EscapedKey", `{"\u0069ban":"DE00 1234","ok":true}`, `{"ok":true}`},
		{"Empty", ``, `{}`},
		{"Null", `null`, `{}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := f.WithoutMasked(json.RawMessage(tt.data))
			if err != nil || string(got) != tt.want {
				t.Fatalf("got %s, %v; want %s", got, err, tt.want)
			}
		})
	}
	t.Run("ErrNotAnObject", func(t *testing.T) {
		if got, err := f.WithoutMasked(json.RawMessage(`["DE00 1234"]`)); err == nil {
			t.Fatalf("got %s, want an error", got)
		}
	})
}
