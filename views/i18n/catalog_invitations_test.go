package i18n

import (
	"reflect"
	"strings"
	"testing"
)

// TestInvitationsTextComplete walks the nested guest link text, which the catalogue test does not.
func TestInvitationsTextComplete(t *testing.T) {
	for _, c := range Supported {
		v := reflect.ValueOf(c.Invitations)
		for i := range v.NumField() {
			name, got := v.Type().Field(i).Name, v.Field(i).String()
			if got == "" {
				t.Errorf("%s: Invitations.%s is empty", c.Lang, name)
			}
			if want := strings.Count(reflect.ValueOf(english.Invitations).Field(i).String(), "%s"); strings.Count(got, "%s") != want {
				t.Errorf("%s: Invitations.%s has %d %%s, want %d", c.Lang, name, strings.Count(got, "%s"), want)
			}
		}
	}
}
