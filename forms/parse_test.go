package forms

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"usertasks/models"
)

func TestParse(t *testing.T) {
	t.Run("OK", func(t *testing.T) {
		for _, tc := range []struct {
			name   string
			schema string
		}{
			{"FullSchema", fullSchema},
			{"NoSchemaKeyword", `{"type":"object","properties":{"a":{"type":"string"}}}`},
			{"SchemaWithEmptyFragment", `{"$schema":"https://json-schema.org/draft/2020-12/schema#","type":"object"}`},
			{"NoProperties", `{"type":"object"}`},
			{"Annotations", `{"type":"object","$id":"https://forms.example.com/a.json","$comment":"c","description":"d",
				"properties":{"a":{"type":"string","title":"A","description":"about a","$comment":"c"}}}`},
			{"AdditionalPropertiesFalse", `{"type":"object","additionalProperties":false,"properties":{"a":{"type":"boolean"}}}`},
			{"AdditionalPropertiesTrue", `{"type":"object","additionalProperties":true,"properties":{"a":{"type":"boolean"}}}`},
			{"String", `{"type":"object","properties":{"a":{"type":"string"}}}`},
			{"StringEnum", `{"type":"object","properties":{"a":{"type":"string","enum":["x","y"]}}}`},
			{"StringEnumSelectWidget", `{"type":"object","properties":{"a":{"type":"string","enum":["x"],"x-ui":{"widget":"select"}}}}`},
			{"StringEnumRadioWidget", `{"type":"object","properties":{"a":{"type":"string","enum":["x"],"x-ui":{"widget":"radio"}}}}`},
			{"StringTextarea", `{"type":"object","properties":{"a":{"type":"string","x-ui":{"widget":"textarea"}}}}`},
			{"StringFormatDate", `{"type":"object","properties":{"a":{"type":"string","format":"date"}}}`},
			{"StringFormatDateTime", `{"type":"object","properties":{"a":{"type":"string","format":"date-time"}}}`},
			{"StringFormatEmail", `{"type":"object","properties":{"a":{"type":"string","format":"email"}}}`},
			{"StringFormatURI", `{"type":"object","properties":{"a":{"type":"string","format":"uri"}}}`},
			{"StringLengthsAndPattern", `{"type":"object","properties":{"a":{"type":"string","minLength":1,"maxLength":3,"pattern":"^a"}}}`},
			{"Number", `{"type":"object","properties":{"a":{"type":"number","minimum":-1.5,"maximum":2e3,"multipleOf":0.5}}}`},
			{"NumberExclusive", `{"type":"object","properties":{"a":{"type":"number","exclusiveMinimum":0,"exclusiveMaximum":1}}}`},
			{"Integer", `{"type":"object","properties":{"a":{"type":"integer","minimum":1,"maximum":9,"multipleOf":2}}}`},
			{"Boolean", `{"type":"object","properties":{"a":{"type":"boolean"}}}`},
			{"UIHints", `{"type":"object","properties":{"a":{"type":"string","x-ui":{"label":"A","order":-3,"masked":true,"help":"h"}}}}`},
			{"Required", `{"type":"object","properties":{"a":{"type":"string"},"b":{"type":"integer"}},"required":["a","b"]}`},
		} {
			t.Run(tc.name, func(t *testing.T) {
				if _, err := Parse(json.RawMessage(tc.schema)); err != nil {
					t.Fatalf("Parse: %v", err)
				}
			})
		}
	})

	t.Run("ErrInvalid", func(t *testing.T) {
		prop := func(p string) string { return `{"type":"object","properties":{"a":` + p + `}}` }
		for _, tc := range []struct {
			name   string
			schema string
			want   string // substring of the message
		}{
			{"Empty", ``, "is required"},
			{"NotJSON", `{"type":`, "not valid JSON"},
			{"TrailingData", `{"type":"object"} {}`, "not valid JSON"},
			{"NotAnObject", `[1]`, "must be a JSON object"},
			{"TypeMissing", `{"properties":{}}`, `type must be "object"`},
			{"TypeNotObject", `{"type":"string"}`, `type must be "object"`},
			{"OtherDraft", `{"$schema":"http://json-schema.org/draft-07/schema#","type":"object"}`, "$schema must be"},
			{"RemoteMetaSchema", `{"$schema":"https://example.com/meta","type":"object"}`, "$schema must be"},
			{"RootRemoteRef", `{"$ref":"https://example.com/form.json"}`, "remote document"},
			{"RootLocalRef", `{"type":"object","$ref":"#/$defs/x"}`, "$ref is not supported"},
			{"Defs", `{"type":"object","$defs":{"x":{"type":"string"}}}`, "$defs is not supported"},
			{"RootCombinator", `{"type":"object","allOf":[]}`, "allOf is not supported"},
			{"RootUnknownKeyword", `{"type":"object","minProperties":1}`, `keyword "minProperties" is not supported`},
			{"AdditionalPropertiesSchema", `{"type":"object","additionalProperties":{"type":"string"}}`, "additionalProperties must be true or false"},
			{"AdditionalPropertiesNull", `{"type":"object","additionalProperties":null}`, "additionalProperties must be true or false"},
			{"PropertiesNotObject", `{"type":"object","properties":[]}`, "properties must be an object"},
			{"PropertyNotObject", prop(`true`), "must be a schema object"},
			{"PropertyBadKey", `{"type":"object","properties":{"a b":{"type":"string"}}}`, "property key"},
			{"PropertyKeyTooLong", `{"type":"object","properties":{"` + strings.Repeat("k", 65) + `":{"type":"string"}}}`, "at most 64"},
			{"NestedObject", prop(`{"type":"object","properties":{"b":{"type":"string"}}}`), "nested objects are not supported"},
			{"Array", prop(`{"type":"array","items":{"type":"string"}}`), "arrays are not supported"},
			{"NullType", prop(`{"type":"null"}`), "type must be one of"},
			{"TypeList", prop(`{"type":["string","null"]}`), "type must be one of"},
			{"TypeMissingOnProperty", prop(`{"minLength":1}`), "type is required"},
			{"RemoteRef", prop(`{"$ref":"https://example.com/defs.json#/x"}`), "$ref to a remote document is not allowed"},
			{"RelativeRemoteRef", prop(`{"$ref":"other.json"}`), "$ref to a remote document is not allowed"},
			{"LocalRef", prop(`{"$ref":"#/$defs/x"}`), "$ref is not supported"},
			{"PropertyCombinator", prop(`{"type":"string","anyOf":[{"minLength":1}]}`), "anyOf is not supported"},
			{"PropertyUnknownKeyword", prop(`{"type":"string","default":"x"}`), `keyword "default" is not supported`},
			{"EnumOnNumber", prop(`{"type":"number","enum":[1,2]}`), "enum is only supported on strings"},
			{"EnumOnBoolean", prop(`{"type":"boolean","enum":[true]}`), "enum is only supported on strings"},
			{"EnumNotStrings", prop(`{"type":"string","enum":["a",1]}`), "non-empty array of strings"},
			{"EnumEmpty", prop(`{"type":"string","enum":[]}`), "non-empty array of strings"},
			{"EnumEmptyOption", prop(`{"type":"string","enum":["a",""]}`), "non-empty and without surrounding spaces"},
			{"EnumPaddedOption", prop(`{"type":"string","enum":[" a"]}`), "non-empty and without surrounding spaces"},
			{"EnumDuplicate", prop(`{"type":"string","enum":["a","a"]}`), "unique"},
			{"EnumWithFormat", prop(`{"type":"string","enum":["2024-01-01"],"format":"date"}`), "enum cannot be combined with format"},
			{"FormatUnsupported", prop(`{"type":"string","format":"ipv4"}`), "format must be one of"},
			{"FormatOnNumber", prop(`{"type":"number","format":"date"}`), "format is only supported on strings"},
			{"MinLengthNegative", prop(`{"type":"string","minLength":-1}`), "minLength must be a non-negative integer"},
			{"MaxLengthFraction", prop(`{"type":"string","maxLength":1.5}`), "maxLength must be a non-negative integer"},
			{"MinLengthAboveMax", prop(`{"type":"string","minLength":3,"maxLength":2}`), "minLength is greater than maxLength"},
			{"PatternInvalid", prop(`{"type":"string","pattern":"(?=a)"}`), "pattern is not a supported regular expression"},
			{"PatternNotString", prop(`{"type":"string","pattern":1}`), "pattern must be a string"},
			{"MinLengthOnNumber", prop(`{"type":"number","minLength":1}`), "minLength does not apply to type number"},
			{"MinimumOnString", prop(`{"type":"string","minimum":1}`), "minimum does not apply to type string"},
			{"MinimumNotNumber", prop(`{"type":"number","minimum":"1"}`), "minimum must be a number"},
			{"MaximumOutOfRange", prop(`{"type":"number","maximum":1e999}`), "maximum is out of range"},
			{"MultipleOfZero", prop(`{"type":"integer","multipleOf":0}`), "multipleOf must be greater than 0"},
			{"MinimumAboveMaximum", prop(`{"type":"number","minimum":5,"maximum":1}`), "minimum is greater than the maximum"},
			{"IntegerBoundsEmpty", prop(`{"type":"integer","exclusiveMinimum":1,"exclusiveMaximum":2}`), "minimum is greater than the maximum"},
			{"UINotObject", prop(`{"type":"string","x-ui":"textarea"}`), "x-ui must be an object"},
			{"UIUnknownHint", prop(`{"type":"string","x-ui":{"placeholder":"x"}}`), `unknown x-ui hint "placeholder"`},
			{"UnknownWidget", prop(`{"type":"string","x-ui":{"widget":"slider"}}`), "x-ui widget must be one of"},
			{"WidgetOnNumber", prop(`{"type":"number","x-ui":{"widget":"textarea"}}`), "needs a string property"},
			{"SelectWithoutEnum", prop(`{"type":"string","x-ui":{"widget":"select"}}`), "needs an enum"},
			{"RadioWithoutEnum", prop(`{"type":"string","x-ui":{"widget":"radio"}}`), "needs an enum"},
			{"TextareaWithEnum", prop(`{"type":"string","enum":["a"],"x-ui":{"widget":"textarea"}}`), "textarea cannot be combined"},
			{"TextareaWithFormat", prop(`{"type":"string","format":"email","x-ui":{"widget":"textarea"}}`), "textarea cannot be combined"},
			{"OrderNotInteger", prop(`{"type":"string","x-ui":{"order":1.5}}`), "x-ui order must be an integer"},
			{"MaskedNotBool", prop(`{"type":"string","x-ui":{"masked":"yes"}}`), "x-ui masked must be true or false"},
			{"LabelNotString", prop(`{"type":"string","x-ui":{"label":1}}`), "x-ui label must be a string"},
			{"TitleNotString", prop(`{"type":"string","title":1}`), "title must be a string"},
			{"RequiredNotArray", `{"type":"object","properties":{"a":{"type":"string"}},"required":"a"}`, "required must be an array"},
			{"RequiredUndeclared", `{"type":"object","properties":{"a":{"type":"string"}},"required":["b"]}`, `required names "b"`},
			{"RequiredTwice", `{"type":"object","properties":{"a":{"type":"string"}},"required":["a","a"]}`, "twice"},
		} {
			t.Run(tc.name, func(t *testing.T) {
				_, err := Parse(json.RawMessage(tc.schema))
				requireInvalid(t, err, models.CodeValidationFailed, nil)
				var ve *models.ValidationError
				errors.As(err, &ve)
				if len(ve.Fields) != 1 || ve.Fields[0].Field != "form.schema" {
					t.Fatalf("fields = %+v, want one on form.schema", ve.Fields)
				}
				if msg := ve.Fields[0].Message; !strings.Contains(msg, tc.want) {
					t.Fatalf("message = %q, want it to contain %q", msg, tc.want)
				}
			})
		}
	})

	t.Run("ErrPayloadTooLarge", func(t *testing.T) {
		big := `{"type":"object","description":"` + strings.Repeat("x", models.MaxProtectedPayloadBytes) + `"}`
		_, err := Parse(json.RawMessage(big))
		requireInvalid(t, err, models.CodePayloadTooLarge, []models.FieldError{{Field: "form.schema", Message: "is larger than 256 KiB"}})
	})

	t.Run("RemoteIDIsNotLoaded", func(t *testing.T) {
		// $id only names the document; nothing is fetched and validation works offline.
		f := mustParse(t, `{"type":"object","$id":"https://unreachable.invalid/form.json","properties":{"a":{"type":"string"}}}`)
		if _, err := f.Validate(json.RawMessage(`{"a":"x"}`)); err != nil {
			t.Fatalf("Validate: %v", err)
		}
	})

	t.Run("RefusingLoader", func(t *testing.T) {
		if _, err := (refusingLoader{}).Load("https://example.com/x.json"); err == nil {
			t.Fatal("Load succeeded, want a refusal")
		}
	})
}

func TestParseFormatHint(t *testing.T) {
	prop := func(p string) string { return `{"type":"object","properties":{"a":` + p + `}}` }
	t.Run("OK", func(t *testing.T) {
		f := mustParse(t, prop(`{"type":"string","pattern":"^[A-Z]{2}$","x-ui":{"formatHint":"  two capital letters  "}}`))
		if got := f.Fields()[0].FormatHint; got != "two capital letters" {
			t.Fatalf("format hint %q", got)
		}
	})
	t.Run("ErrInvalid", func(t *testing.T) {
		for _, tc := range []struct{ name, schema, want string }{
			{"NotString", prop(`{"type":"string","x-ui":{"formatHint":1}}`), "x-ui formatHint must be a string"},
			{"Blank", prop(`{"type":"string","x-ui":{"formatHint":"   "}}`), "x-ui formatHint must not be empty"},
			{"TooLong", prop(`{"type":"string","x-ui":{"formatHint":"` + strings.Repeat("ä", 121) + `"}}`), "at most 120 characters"},
			{"ControlCharacter", prop(`{"type":"string","x-ui":{"formatHint":"two\u0000letters"}}`), "control characters"},
			{"LineBreak", prop(`{"type":"string","x-ui":{"formatHint":"two\nletters"}}`), "control characters"},
			{"BidiOverride", prop(`{"type":"string","x-ui":{"formatHint":"two \u202eletters"}}`), "control characters"},
			{"NotText", prop(`{"type":"number","x-ui":{"formatHint":"digits"}}`), "x-ui formatHint needs a string property"},
		} {
			t.Run(tc.name, func(t *testing.T) {
				_, err := Parse(json.RawMessage(tc.schema))
				requireInvalid(t, err, models.CodeValidationFailed, nil)
				var ve *models.ValidationError
				errors.As(err, &ve)
				if msg := ve.Fields[0].Message; !strings.Contains(msg, tc.want) {
					t.Fatalf("message = %q, want it to contain %q", msg, tc.want)
				}
			})
		}
	})
}
