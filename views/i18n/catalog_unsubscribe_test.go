package i18n

import (
	"reflect"
	"strings"
	"testing"
)

// TestUnsubscribeTextComplete: every word of the unsubscribe page is said in every language,
// and the formats name the trigger.
func TestUnsubscribeTextComplete(t *testing.T) {
	for _, c := range Supported {
		v := reflect.ValueOf(c.Unsubscribe)
		for i := range v.NumField() {
			if v.Field(i).String() == "" {
				t.Errorf("%s: Unsubscribe.%s is empty", c.Lang, v.Type().Field(i).Name)
			}
		}
		for _, f := range []string{c.Unsubscribe.Confirm, c.Unsubscribe.Done, c.Unsubscribe.AlreadyOff} {
			if strings.Count(f, "%s") != 1 {
				t.Errorf("%s: %q must name the trigger once", c.Lang, f)
			}
		}
	}
	if english.Unsubscribe.Button == german.Unsubscribe.Button {
		t.Error("the German unsubscribe text is the English one")
	}
}
