package forms

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"
)

// TestParseTitledOptions: a string's oneOf of {const, title} offers its consts as options with
// their titles; anything else under oneOf is refused.
func TestParseTitledOptions(t *testing.T) {
	t.Run("OK", func(t *testing.T) {
		f := mustParse(t, `{"type":"object","properties":{"d":{"type":"string","oneOf":[{"const":"a","title":"Approve"},{"const":"r"}],"x-ui":{"widget":"radio"}}}}`)
		fl := f.Fields()[0]
		if fl.Type != TypeRadio || !slices.Equal(fl.Options, []string{"a", "r"}) || !slices.Equal(fl.OptionTitles, []string{"Approve", "r"}) {
			t.Fatalf("field %+v", fl)
		}
		if _, err := f.Validate(json.RawMessage(`{"d":"a"}`)); err != nil {
			t.Fatalf("a const is refused: %v", err)
		}
		_, err := f.Validate(json.RawMessage(`{"d":"Approve"}`))
		if err == nil || !strings.Contains(err.Error(), "one of the offered options") {
			t.Fatalf("a title is accepted as the value: %v", err)
		}
	})
	for name, schema := range map[string]string{
		"NotAnArray":      `{"oneOf":{"const":"a"}}`,
		"Empty":           `{"oneOf":[]}`,
		"NumberConst":     `{"oneOf":[{"const":1}]}`,
		"NoConst":         `{"oneOf":[{"title":"x"}]}`,
		"OtherKeyword":    `{"oneOf":[{"const":"a","pattern":"."}]}`,
		"Nested":          `{"oneOf":[{"const":"a","oneOf":[{"const":"b"}]}]}`,
		"Duplicate":       `{"oneOf":[{"const":"a"},{"const":"a"}]}`,
		"Spaces":          `{"oneOf":[{"const":" a"}]}`,
		"WithEnum":        `{"enum":["a"],"oneOf":[{"const":"a"}]}`,
		"TitleNotText":    `{"oneOf":[{"const":"a","title":5}]}`,
		"WithFormat":      `{"format":"date","oneOf":[{"const":"a"}]}`,
		"RefInsideOption": `{"oneOf":[{"$ref":"#/x"}]}`,
	} {
		t.Run("Refused"+name, func(t *testing.T) {
			var prop map[string]any
			if err := json.Unmarshal([]byte(schema), &prop); err != nil {
				t.Fatal(err)
			}
			prop["type"] = "string"
			raw, _ := json.Marshal(map[string]any{"type": "object", "properties": map[string]any{"d": prop}})
			if _, err := Parse(raw); err == nil {
				t.Fatalf("accepted %s", schema)
			}
		})
	}
	t.Run("RefusedOnNumbers", func(t *testing.T) {
		if _, err := Parse(json.RawMessage(`{"type":"object","properties":{"n":{"type":"number","oneOf":[{"const":1}]}}}`)); err == nil {
			t.Fatal("oneOf accepted on a number")
		}
	})
}
