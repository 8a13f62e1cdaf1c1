package i18n

import (
	"reflect"
	"strings"
	"testing"
)

func TestViewsTextComplete(t *testing.T) {
	for _, c := range Supported {
		v := reflect.ValueOf(c.Views)
		for i := range v.NumField() {
			name, s := v.Type().Field(i).Name, v.Field(i).String()
			want := strings.Count(reflect.ValueOf(english.Views).Field(i).String(), "%")
			if s == "" {
				t.Errorf("%s: Views.%s is empty", c.Lang, name)
			} else if strings.Count(s, "%") != want {
				t.Errorf("%s: Views.%s has %d verbs, English %d", c.Lang, name, strings.Count(s, "%"), want)
			}
		}
	}
}
