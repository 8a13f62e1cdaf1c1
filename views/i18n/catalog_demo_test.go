package i18n

import (
	"reflect"
	"testing"
)

// TestDemoUsersTextComplete: every demo user's label is said in every language.
func TestDemoUsersTextComplete(t *testing.T) {
	for _, c := range Supported {
		v := reflect.ValueOf(c.DemoUsers)
		for i := range v.NumField() {
			if f := v.Field(i); f.String() == "" {
				t.Errorf("%s: DemoUsers.%s is empty", c.Lang, v.Type().Field(i).Name)
			}
		}
		if c.DemoUsers.Shows("no-such-key") != "" || c.DemoUsers.Shows("snapshot-member") != c.DemoUsers.SnapshotMember {
			t.Errorf("%s: Shows maps keys wrongly", c.Lang)
		}
	}
}
