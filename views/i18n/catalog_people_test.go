package i18n

import (
	"reflect"
	"strings"
	"testing"
)

// TestPeopleTextComplete walks the nested People text, which the catalogue test does not.
func TestPeopleTextComplete(t *testing.T) {
	for _, c := range Supported {
		v := reflect.ValueOf(c.People)
		for i := range v.NumField() {
			name, got := v.Type().Field(i).Name, v.Field(i).String()
			if got == "" {
				t.Errorf("%s: People.%s is empty", c.Lang, name)
			}
			if want := strings.Count(reflect.ValueOf(english.People).Field(i).String(), "%s"); strings.Count(got, "%s") != want {
				t.Errorf("%s: People.%s has %d %%s, want %d", c.Lang, name, strings.Count(got, "%s"), want)
			}
		}
	}
}
