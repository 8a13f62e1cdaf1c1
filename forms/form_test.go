package forms

import (
	"reflect"
	"testing"
)

func TestFields(t *testing.T) {
	f := mustParse(t, fullSchema)

	t.Run("Order", func(t *testing.T) {
		var got []string
		for _, fl := range f.Fields() {
			got = append(got, fl.Key)
		}
		// Ordered fields by x-ui order (approved 0, amount 1, comment 9), then the rest by key.
		want := []string{"approved", "amount", "comment",
			"channel", "code", "count", "dueOn", "email", "iban", "level", "meetAt", "pin", "website"}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("order = %v\nwant    %v", got, want)
		}
	})

	t.Run("Describe", func(t *testing.T) {
		byKey := map[string]Field{}
		for _, fl := range f.Fields() {
			byKey[fl.Key] = fl
		}
		for _, want := range []Field{
			{Key: "approved", Label: "Approved", Type: TypeCheckbox, Required: true},
			{Key: "amount", Label: "Amount (EUR)", Type: TypeNumber, Required: true, Min: ptr(0.0), Max: ptr(1000.0)},
			{Key: "comment", Label: "Comment", Type: TypeTextarea, Help: "Why?", MaxLength: ptr(200)},
			{Key: "channel", Label: "Channel", Type: TypeRadio, Options: []string{"mail", "phone"}},
			{Key: "code", Label: "Code", Type: TypeText, MinLength: ptr(3), MaxLength: ptr(5)},
			{Key: "count", Label: "Count", Type: TypeInteger, Min: ptr(1.0), Max: ptr(9.0)},
			{Key: "dueOn", Label: "Due on", Type: TypeDate},
			{Key: "email", Label: "Email", Type: TypeEmail},
			{Key: "iban", Label: "Iban", Type: TypeText, Masked: true},
			{Key: "level", Label: "Level", Type: TypeSelect, Options: []string{"low", "high"}},
			{Key: "meetAt", Label: "Meet at", Type: TypeDateTime},
			{Key: "pin", Label: "Pin", Type: TypeInteger, Masked: true},
			{Key: "website", Label: "Website", Type: TypeURL},
		} {
			if got := byKey[want.Key]; !reflect.DeepEqual(got, want) {
				t.Errorf("%s:\n got %+v\nwant %+v", want.Key, got, want)
			}
		}
	})

	t.Run("TitleAndDescriptionAreFallbacks", func(t *testing.T) {
		f := mustParse(t, `{"type":"object","properties":{
			"a":{"type":"string","title":"Title A","description":"Desc A"},
			"b":{"type":"string","title":"Title B","description":"Desc B","x-ui":{"label":"Label B","help":"Help B"}}}}`)
		got := f.Fields()
		if got[0].Label != "Title A" || got[0].Help != "Desc A" || got[1].Label != "Label B" || got[1].Help != "Help B" {
			t.Fatalf("fields = %+v", got)
		}
	})

	t.Run("IntegerBoundsAreInclusiveWholeNumbers", func(t *testing.T) {
		f := mustParse(t, `{"type":"object","properties":{
			"i":{"type":"integer","minimum":0.5,"maximum":7.5},
			"n":{"type":"number","exclusiveMinimum":0,"maximum":7.5}}}`)
		got := f.Fields()
		if *got[0].Min != 1 || *got[0].Max != 7 {
			t.Fatalf("integer bounds = %v..%v, want 1..7", *got[0].Min, *got[0].Max)
		}
		if got[1].Min != nil || *got[1].Max != 7.5 {
			t.Fatalf("number bounds = %v..%v, want nil..7.5", got[1].Min, *got[1].Max)
		}
	})

	t.Run("CopyIsIndependent", func(t *testing.T) {
		a := f.Fields()
		a[0].Key = "changed"
		for i := range a {
			if a[i].Options != nil {
				a[i].Options[0] = "changed"
			}
			if a[i].Min != nil {
				*a[i].Min = -99
			}
		}
		b := f.Fields()
		for _, fl := range b {
			if fl.Key == "changed" || (fl.Options != nil && fl.Options[0] == "changed") || (fl.Min != nil && *fl.Min == -99) {
				t.Fatalf("Fields shares state with its callers: %+v", fl)
			}
		}
	})
}

func TestHumanize(t *testing.T) {
	for _, tc := range []struct{ key, want string }{
		{"firstName", "First name"},
		{"first_name", "First name"},
		{"first-name", "First name"},
		{"customerID", "Customer ID"},
		{"URLValue", "URL value"},
		{"address2", "Address 2"},
		{"a", "A"},
		{"_", "_"},
	} {
		t.Run(tc.key, func(t *testing.T) {
			if got := humanize(tc.key); got != tc.want {
				t.Fatalf("humanize(%q) = %q, want %q", tc.key, got, tc.want)
			}
		})
	}
}
