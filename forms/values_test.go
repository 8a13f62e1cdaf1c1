package forms

import (
	"encoding/json"
	"testing"

	"usertasks/models"
)

func TestParseFormValues(t *testing.T) {
	f := mustParse(t, fullSchema)

	t.Run("Typed", func(t *testing.T) {
		for _, tc := range []struct {
			name   string
			values map[string][]string
			want   string
		}{
			{"CheckboxAbsentIsFalse", map[string][]string{}, `{"approved":false}`},
			{"CheckboxPresentIsTrue", map[string][]string{"approved": {"on"}}, `{"approved":true}`},
			{"CheckboxFalseValue", map[string][]string{"approved": {"false"}}, `{"approved":false}`},
			{"Numbers", map[string][]string{"amount": {" 12.50 "}, "count": {"3"}},
				`{"amount":12.50,"approved":false,"count":3}`},
			{"UnparseableNumberKeptAsText", map[string][]string{"amount": {"12,5"}, "count": {"0x10"}},
				`{"amount":"12,5","approved":false,"count":"0x10"}`},
			{"EmptyInputsOmitted", map[string][]string{"comment": {"  "}, "level": {""}, "amount": {}},
				`{"approved":false}`},
			{"UndeclaredIgnored", map[string][]string{"_csrf": {"t"}, "actionKey": {"Complete"}},
				`{"approved":false}`},
			{"FirstOfRepeated", map[string][]string{"level": {"low", "high"}}, `{"approved":false,"level":"low"}`},
			{"DatetimeLocalReadAsUTC", map[string][]string{"meetAt": {"2024-05-01T14:30"}},
				`{"approved":false,"meetAt":"2024-05-01T14:30:00Z"}`},
			{"DatetimeWithZoneKept", map[string][]string{"meetAt": {"2024-05-01T14:30:00+02:00"}},
				`{"approved":false,"meetAt":"2024-05-01T14:30:00+02:00"}`},
			{"Text", map[string][]string{"comment": {"a <b>"}, "dueOn": {"2024-05-01"}},
				`{"approved":false,"comment":"a <b>","dueOn":"2024-05-01"}`},
		} {
			t.Run(tc.name, func(t *testing.T) {
				if got := f.ParseFormValues(tc.values); string(got) != tc.want {
					t.Fatalf("got  %s\nwant %s", got, tc.want)
				}
			})
		}
	})

	t.Run("RoundTrip", func(t *testing.T) {
		got, err := f.Validate(f.ParseFormValues(map[string][]string{
			"approved": {"on"}, "amount": {"12.50"}, "count": {"3"}, "comment": {" fine "},
			"level": {"high"}, "channel": {"phone"}, "dueOn": {"2024-05-01"}, "meetAt": {"2024-05-01T14:30"},
			"email": {"a@example.com"}, "website": {"https://example.com"}, "code": {"ABC"},
			"iban": {"DE00 1234"}, "pin": {"1234"}, "_csrf": {"token"},
		}))
		if err != nil {
			t.Fatalf("Validate: %v", err)
		}
		want := `{"amount":12.5,"approved":true,"channel":"phone","code":"ABC","comment":"fine","count":3,` +
			`"dueOn":"2024-05-01","email":"a@example.com","iban":"DE00 1234","level":"high",` +
			`"meetAt":"2024-05-01T14:30:00Z","pin":1234,"website":"https://example.com"}`
		if string(got) != want {
			t.Fatalf("got  %s\nwant %s", got, want)
		}
	})

	t.Run("UnparseableNumberIsAFieldError", func(t *testing.T) {
		_, err := f.Validate(f.ParseFormValues(map[string][]string{"amount": {"12,5"}}))
		requireInvalid(t, err, models.CodeFormInvalid, []models.FieldError{{Field: "amount", Message: "must be a number"}})
	})

	t.Run("MissingRequiredIsAFieldError", func(t *testing.T) {
		_, err := f.Validate(f.ParseFormValues(map[string][]string{"amount": {" "}}))
		requireInvalid(t, err, models.CodeFormInvalid, []models.FieldError{{Field: "amount", Message: "is required"}})
	})

	t.Run("OutputIsJSON", func(t *testing.T) {
		got := f.ParseFormValues(map[string][]string{"comment": {"\"quoted\" \x01"}, "amount": {"-0.5e-3"}})
		if !json.Valid(got) {
			t.Fatalf("not JSON: %s", got)
		}
	})
}
