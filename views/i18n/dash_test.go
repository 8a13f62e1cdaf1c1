package i18n

import (
	"reflect"
	"strings"
	"testing"
	"time"
)

// TestDashTextComplete walks the dashboard's nested text as TestWebCatalogsComplete walks the
// catalogue: every string set, every English map key translated.
func TestDashTextComplete(t *testing.T) {
	for _, c := range Supported {
		v, en := reflect.ValueOf(c.Dash), reflect.ValueOf(english.Dash)
		for i := range v.NumField() {
			f, name := v.Field(i), v.Type().Field(i).Name
			switch f.Kind() {
			case reflect.String:
				if f.String() == "" {
					t.Errorf("%s: Dash.%s is empty", c.Lang, name)
				}
				if strings.Count(f.String(), "%") != strings.Count(en.Field(i).String(), "%") {
					t.Errorf("%s: Dash.%s has other verbs than English", c.Lang, name)
				}
			case reflect.Array:
				for j := range f.Len() {
					if f.Index(j).String() == "" {
						t.Errorf("%s: Dash.%s[%d] is empty", c.Lang, name, j)
					}
				}
			case reflect.Map:
				for _, k := range en.Field(i).MapKeys() {
					if m := f.MapIndex(k); !m.IsValid() || m.String() == "" {
						t.Errorf("%s: Dash.%s[%v] is missing", c.Lang, name, k)
					}
				}
			}
		}
	}
}

func TestDashDurations(t *testing.T) {
	c := English()
	for _, tc := range []struct {
		d    time.Duration
		open bool
		want string
	}{
		{5 * time.Minute, false, "up to 5 minutes"},
		{2 * time.Hour, false, "up to 2 hours"},
		{96 * time.Hour, false, "up to 4 days"},
		{30 * 24 * time.Hour, true, "more than 30 days"},
	} {
		if got := c.Dash.Duration(c, tc.d, tc.open); got != tc.want {
			t.Errorf("Duration(%s, %v) = %q, want %q", tc.d, tc.open, got, tc.want)
		}
	}
	if got := c.Dash.Length(c, 1500*time.Millisecond); got != "2 seconds" {
		t.Errorf("Length(1.5s) = %q", got)
	}
	if got := German().Dash.Worker("due-sweep"); got != "Fälligkeitsprüfung" {
		t.Errorf("German worker name %q", got)
	}
}
