package forms

import (
	"encoding/json"
	"errors"
	"strings"
	"sync"
	"testing"

	"usertasks/models"
)

// secret is a distinctive submitted value no error message may contain.
const secret = "zq7secret"

func TestValidate(t *testing.T) {
	f := mustParse(t, fullSchema)

	t.Run("OK", func(t *testing.T) {
		for _, tc := range []struct {
			name, data, want string
		}{
			{"Minimal", `{"approved":false,"amount":0}`, `{"amount":0,"approved":false}`},
			{"SortedKeys", `{"website":"https://example.com/a","approved":true,"amount":12.5,"email":"a@example.com"}`,
				`{"amount":12.5,"approved":true,"email":"a@example.com","website":"https://example.com/a"}`},
			{"Trimmed", `{"approved":true,"amount":1,"comment":"  hello\n","code":" ABC "}`,
				`{"amount":1,"approved":true,"code":"ABC","comment":"hello"}`},
			{"TrimBeforeFormat", `{"approved":true,"amount":1,"email":" a@example.com ","dueOn":" 2024-02-29 "}`,
				`{"amount":1,"approved":true,"dueOn":"2024-02-29","email":"a@example.com"}`},
			{"EmptyOptionalDropped", `{"approved":true,"amount":1,"comment":"   ","level":""}`, `{"amount":1,"approved":true}`},
			{"IntegerCanonical", `{"approved":true,"amount":1,"count":3.0,"pin":1.2e1}`, `{"amount":1,"approved":true,"count":3,"pin":12}`},
			{"NumberCanonical", `{"approved":true,"amount":5.50e1}`, `{"amount":55,"approved":true}`},
			{"NegativeZero", `{"approved":true,"amount":-0.0}`, `{"amount":0,"approved":true}`},
			{"AllFormats", `{"approved":true,"amount":1,"dueOn":"2024-01-31","meetAt":"2024-01-31T10:00:00+01:00",
				"email":"x.y@example.org","website":"urn:isbn:0451450523"}`,
				`{"amount":1,"approved":true,"dueOn":"2024-01-31","email":"x.y@example.org","meetAt":"2024-01-31T10:00:00+01:00","website":"urn:isbn:0451450523"}`},
			{"EnumAndBounds", `{"approved":true,"amount":1000,"count":9,"level":"high","channel":"mail"}`,
				`{"amount":1000,"approved":true,"channel":"mail","count":9,"level":"high"}`},
			{"NoHTMLEscaping", `{"approved":true,"amount":1,"comment":"a<b>&c"}`, `{"amount":1,"approved":true,"comment":"a<b>&c"}`},
		} {
			t.Run(tc.name, func(t *testing.T) {
				got, err := f.Validate(json.RawMessage(tc.data))
				if err != nil {
					t.Fatalf("Validate: %v", err)
				}
				if string(got) != tc.want {
					t.Fatalf("got  %s\nwant %s", got, tc.want)
				}
			})
		}
	})

	t.Run("EmptyDataIsAnEmptyObject", func(t *testing.T) {
		opt := mustParse(t, `{"type":"object","properties":{"a":{"type":"string"}}}`)
		for _, data := range []string{``, `null`, ` {} `} {
			got, err := opt.Validate(json.RawMessage(data))
			if err != nil || string(got) != `{}` {
				t.Fatalf("Validate(%q) = %s, %v; want {}", data, got, err)
			}
		}
	})

	t.Run("AdditionalPropertiesTrueDropsUnknownKeys", func(t *testing.T) {
		open := mustParse(t, `{"type":"object","additionalProperties":true,"properties":{"a":{"type":"string"}}}`)
		got, err := open.Validate(json.RawMessage(`{"a":"x","extra":{"nested":[1]}}`))
		if err != nil || string(got) != `{"a":"x"}` {
			t.Fatalf("got %s, %v; want {\"a\":\"x\"}", got, err)
		}
	})

	t.Run("ErrFormInvalid", func(t *testing.T) {
		base := `"approved":true,"amount":1`
		for _, tc := range []struct {
			name, data string
			want       []models.FieldError
		}{
			{"RequiredMissing", `{}`, []models.FieldError{
				{Field: "approved", Message: "is required"}, {Field: "amount", Message: "is required"}}},
			{"RequiredEmptyString", `{"approved":true,"amount":"   "}`, []models.FieldError{{Field: "amount", Message: "is required"}}},
			{"WrongTypeString", `{` + base + `,"comment":42}`, []models.FieldError{{Field: "comment", Message: "must be text"}}},
			{"WrongTypeNumber", `{"approved":true,"amount":"` + secret + `"}`, []models.FieldError{{Field: "amount", Message: "must be a number"}}},
			{"WrongTypeInteger", `{` + base + `,"count":2.5}`, []models.FieldError{{Field: "count", Message: "must be a whole number"}}},
			{"WrongTypeBoolean", `{"approved":"` + secret + `","amount":1}`, []models.FieldError{{Field: "approved", Message: "must be true or false"}}},
			{"WrongTypeNested", `{` + base + `,"comment":{"x":"` + secret + `"}}`, []models.FieldError{{Field: "comment", Message: "must be text"}}},
			{"EnumMismatch", `{` + base + `,"level":"` + secret + `"}`, []models.FieldError{{Field: "level", Message: "must be one of the offered options"}}},
			{"BadEmail", `{` + base + `,"email":"` + secret + `"}`, []models.FieldError{{Field: "email", Message: "must be an email address"}}},
			{"BadDate", `{` + base + `,"dueOn":"2024-02-30` + secret + `"}`, []models.FieldError{{Field: "dueOn", Message: "must be a date (YYYY-MM-DD)"}}},
			{"ImpossibleDate", `{` + base + `,"dueOn":"2023-02-29"}`, []models.FieldError{{Field: "dueOn", Message: "must be a date (YYYY-MM-DD)"}}},
			{"BadDateTime", `{` + base + `,"meetAt":"2024-01-01T10:00` + secret + `"}`, []models.FieldError{{Field: "meetAt", Message: "must be a date and time with time zone (RFC 3339)"}}},
			{"DateTimeWithoutZone", `{` + base + `,"meetAt":"2024-01-01T10:00:00"}`, []models.FieldError{{Field: "meetAt", Message: "must be a date and time with time zone (RFC 3339)"}}},
			{"BadURI", `{` + base + `,"website":"/relative/` + secret + `"}`, []models.FieldError{{Field: "website", Message: "must be an absolute URL"}}},
			{"BelowMinimum", `{"approved":true,"amount":-7731}`, []models.FieldError{{Field: "amount", Message: "must be at least 0"}}},
			{"AboveMaximum", `{"approved":true,"amount":7731.5}`, []models.FieldError{{Field: "amount", Message: "must be at most 1000"}}},
			{"AtExclusiveMinimum", `{` + base + `,"count":0}`, []models.FieldError{{Field: "count", Message: "must be greater than 0"}}},
			{"AtExclusiveMaximum", `{` + base + `,"count":10}`, []models.FieldError{{Field: "count", Message: "must be less than 10"}}},
			{"TooShort", `{` + base + `,"code":"AB"}`, []models.FieldError{{Field: "code", Message: "must be at least 3 characters"}}},
			{"TooLong", `{` + base + `,"code":"ABCDEF"}`, []models.FieldError{{Field: "code", Message: "must be at most 5 characters"}}},
			{"PatternMismatch", `{` + base + `,"code":"ab7"}`, []models.FieldError{{Field: "code", Message: "does not have the expected format"}}},
			{"NumberOutOfRange", `{"approved":true,"amount":1e400}`, []models.FieldError{{Field: "amount", Message: "is out of range"}}},
			{"IntegerBeyondSafeRange", `{` + base + `,"pin":9007199254740993}`, []models.FieldError{{Field: "pin", Message: "is out of range"}}},
			{"UnknownKey", `{` + base + `,"extra":"` + secret + `"}`, []models.FieldError{{Field: "extra", Message: "is not a field of this form"}}},
			{"UnknownOddKey", `{` + base + `,"<` + secret + `>":1}`, []models.FieldError{{Field: "data", Message: "contains a field this form does not have"}}},
			{"NotAnObject", `["` + secret + `"]`, []models.FieldError{{Field: "data", Message: "must be a JSON object"}}},
			{"NotJSON", `{"a":`, []models.FieldError{{Field: "data", Message: "must be a JSON object"}}},
			{"SeveralInDisplayOrder", `{"amount":"x","website":"nope","count":1.5,"zzz":1,"aaa":2}`, []models.FieldError{
				{Field: "approved", Message: "is required"},
				{Field: "amount", Message: "must be a number"},
				{Field: "count", Message: "must be a whole number"},
				{Field: "website", Message: "must be an absolute URL"},
				{Field: "aaa", Message: "is not a field of this form"},
				{Field: "zzz", Message: "is not a field of this form"}}},
		} {
			t.Run(tc.name, func(t *testing.T) {
				got, err := f.Validate(json.RawMessage(tc.data))
				if got != nil {
					t.Fatalf("got data %s with an error", got)
				}
				requireInvalid(t, err, models.CodeFormInvalid, tc.want)
				for _, fe := range err.(*models.ValidationError).Fields {
					for _, leak := range []string{secret, "7731", "2024-02-30", "ab7"} {
						if strings.Contains(fe.Message, leak) || strings.Contains(fe.Field, leak) {
							t.Fatalf("field error %+v echoes the submitted value", fe)
						}
					}
				}
				if strings.Contains(err.Error(), secret) {
					t.Fatalf("error %q echoes the submitted value", err)
				}
			})
		}
	})

	t.Run("ErrPayloadTooLarge", func(t *testing.T) {
		want := []models.FieldError{{Field: "data", Message: "is larger than 256 KiB"}}
		t.Run("Before", func(t *testing.T) {
			data := `{"approved":true,"amount":1,"comment":"` + strings.Repeat("a", models.MaxProtectedPayloadBytes) + `"}`
			_, err := f.Validate(json.RawMessage(data))
			requireInvalid(t, err, models.CodePayloadTooLarge, want)
		})
		t.Run("After", func(t *testing.T) {
			// Normalization grows text that encoding/json escapes: U+2028 arrives as 3 bytes of
			// UTF-8 and is written as the 6-byte escape \u2028.
			big := mustParse(t, `{"type":"object","properties":{"t":{"type":"string"}}}`)
			n := models.MaxProtectedPayloadBytes/3 - 10
			data := `{"t":"a` + strings.Repeat("\u2028", n) + `a"}`
			if len(data) > models.MaxProtectedPayloadBytes {
				t.Fatalf("test data is %d bytes, want it under the limit", len(data))
			}
			_, err := big.Validate(json.RawMessage(data))
			requireInvalid(t, err, models.CodePayloadTooLarge, want)
		})
	})

	t.Run("ConcurrentUse", func(t *testing.T) {
		var wg sync.WaitGroup
		for i := range 8 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				data := `{"approved":true,"amount":1}`
				if i%2 == 1 {
					data = `{"amount":"x"}`
				}
				_, err := f.Validate(json.RawMessage(data))
				if (err == nil) != (i%2 == 0) || (err != nil && !errors.Is(err, models.ErrInvalid)) {
					t.Errorf("goroutine %d: err = %v", i, err)
				}
			}()
		}
		wg.Wait()
	})
}

func TestCanonicalNumber(t *testing.T) {
	for _, tc := range []struct {
		in      string
		integer bool
		want    string
		ok      bool
	}{
		{"1", true, "1", true},
		{"1.0", true, "1", true},
		{"1e3", true, "1000", true},
		{"9007199254740991", true, "9007199254740991", true},
		{"-9007199254740992", true, "", false},
		{"1.50", false, "1.5", true},
		{"1e21", false, "1e+21", true},
		{"0.0000001", false, "1e-7", true},
		{"1e-400", false, "0", true},
		{"-1e400", false, "", false},
	} {
		t.Run(tc.in, func(t *testing.T) {
			got, ok := canonicalNumber(json.Number(tc.in), tc.integer)
			if string(got) != tc.want || ok != tc.ok {
				t.Fatalf("canonicalNumber(%s) = %q, %v; want %q, %v", tc.in, got, ok, tc.want, tc.ok)
			}
		})
	}
}

func TestKeepMasked(t *testing.T) {
	f := mustParse(t, fullSchema)
	stored := json.RawMessage(`{"iban":"DE89370400440532013000","pin":1234,"comment":"from the workflow"}`)
	for name, tc := range map[string]struct{ data, want string }{
		"LeftOut":           {`{"amount":5}`, `{"amount":5,"iban":"DE89370400440532013000","pin":1234}`},
		"BlankOrNull":       {`{"iban":"  ","pin":null}`, `{"iban":"DE89370400440532013000","pin":1234}`},
		"Typed":             {`{"iban":"GB33BUKB20201555555555"}`, `{"iban":"GB33BUKB20201555555555","pin":1234}`},
		"NotMaskedStaysOut": {`{"comment":""}`, `{"comment":"","iban":"DE89370400440532013000","pin":1234}`},
		"NotAnObject":       {`[1]`, `[1]`},
	} {
		t.Run(name, func(t *testing.T) {
			if got := string(f.KeepMasked(stored, json.RawMessage(tc.data))); got != tc.want {
				t.Fatalf("got %s, want %s", got, tc.want)
			}
		})
	}
	t.Run("NothingStored", func(t *testing.T) {
		if got := string(f.KeepMasked(nil, json.RawMessage(`{"amount":5}`))); got != `{"amount":5}` {
			t.Fatalf("got %s", got)
		}
	})
}

func TestValidatePatternNamesTheFormat(t *testing.T) {
	f := mustParse(t, `{"type":"object","properties":{
		"iban":{"type":"string","pattern":"^[A-Z]{2}[0-9]{2}[A-Z0-9]{10,30}$","x-ui":{"formatHint":"two letters, two digits, up to 30 letters or digits"}},
		"code":{"type":"string","pattern":"^[A-Z]+$"}}}`)
	_, err := f.Validate(json.RawMessage(`{"iban":"` + secret + `","code":"` + secret + `"}`))
	requireInvalid(t, err, models.CodeFormInvalid, []models.FieldError{
		{Field: "code", Message: "does not have the expected format"},
		{Field: "iban", Message: "must have the format: two letters, two digits, up to 30 letters or digits"},
	})
}
