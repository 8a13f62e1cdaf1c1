package i18n

import (
	"reflect"
	"testing"
)

// TestMailboxTextComplete: every word of the dev mailbox is said in every language.
func TestMailboxTextComplete(t *testing.T) {
	for _, c := range Supported {
		v := reflect.ValueOf(c.Mailbox)
		for i := range v.NumField() {
			if f := v.Field(i); f.String() == "" {
				t.Errorf("%s: Mailbox.%s is empty", c.Lang, v.Type().Field(i).Name)
			}
		}
	}
}
