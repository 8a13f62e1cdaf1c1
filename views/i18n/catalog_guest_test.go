package i18n

import (
	"reflect"
	"testing"
)

// TestGuestTextComplete walks the nested Guest text, which the catalogue test does not.
func TestGuestTextComplete(t *testing.T) {
	for _, c := range Supported {
		v := reflect.ValueOf(c.Guest)
		for i := range v.NumField() {
			if v.Field(i).String() == "" {
				t.Errorf("%s: Guest.%s is empty", c.Lang, v.Type().Field(i).Name)
			}
		}
	}
	if english.Guest.InvalidTitle == german.Guest.InvalidTitle {
		t.Error("the German guest text is the English one")
	}
}
