package i18n

import (
	"reflect"
	"testing"
)

func TestListsTextComplete(t *testing.T) {
	for _, c := range Supported {
		v := reflect.ValueOf(c.Lists)
		for i := range v.NumField() {
			if v.Field(i).String() == "" {
				t.Errorf("%s: Lists.%s is empty", c.Lang, v.Type().Field(i).Name)
			}
		}
	}
}
