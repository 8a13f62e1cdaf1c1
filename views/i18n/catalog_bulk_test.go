package i18n

import (
	"reflect"
	"testing"
)

// TestBulkTextComplete: every bulk text is set in every language, and the maps have the same
// keys as English.
func TestBulkTextComplete(t *testing.T) {
	en := reflect.ValueOf(english.Bulk)
	for _, c := range Supported {
		v := reflect.ValueOf(c.Bulk)
		for i := range v.NumField() {
			f, name := v.Field(i), v.Type().Field(i).Name
			switch f.Kind() {
			case reflect.String:
				if f.String() == "" {
					t.Errorf("%s: Bulk.%s is empty", c.Lang, name)
				}
			case reflect.Array:
				for j := range f.Len() {
					if f.Index(j).String() == "" {
						t.Errorf("%s: Bulk.%s[%d] is empty", c.Lang, name, j)
					}
				}
			case reflect.Map:
				want := en.Field(i)
				if f.Len() != want.Len() {
					t.Errorf("%s: Bulk.%s has %d entries, English %d", c.Lang, name, f.Len(), want.Len())
				}
				for _, k := range want.MapKeys() {
					if s := f.MapIndex(k); !s.IsValid() || s.String() == "" {
						t.Errorf("%s: Bulk.%s[%v] is missing", c.Lang, name, k)
					}
				}
			}
		}
	}
}
