package i18n

import (
	"reflect"
	"strings"
	"testing"
)

// TestInvitationsTextComplete walks the nested guest link text, which the catalogue test does not.
func TestInvitationsTextComplete(t *testing.T) {
	nestedTextComplete(t, "Invitations", func(c *Catalog) any { return c.Invitations })
}

// nestedTextComplete checks a nested text struct of every catalogue: no field empty, and as many
// %s in each as the English one has.
func nestedTextComplete(t *testing.T, name string, text func(*Catalog) any) {
	t.Helper()
	en := reflect.ValueOf(text(english))
	for _, c := range Supported {
		v := reflect.ValueOf(text(c))
		for i := range v.NumField() {
			field, got := v.Type().Field(i).Name, v.Field(i).String()
			if got == "" {
				t.Errorf("%s: %s.%s is empty", c.Lang, name, field)
			}
			if want := strings.Count(en.Field(i).String(), "%s"); strings.Count(got, "%s") != want {
				t.Errorf("%s: %s.%s has %d %%s, want %d", c.Lang, name, field, strings.Count(got, "%s"), want)
			}
		}
	}
}
