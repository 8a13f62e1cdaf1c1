package i18n

import (
	"reflect"
	"strings"
	"testing"

	"usertasks/models"
)

func TestNotificationsTextComplete(t *testing.T) {
	en := reflect.ValueOf(english.Notifications)
	for _, c := range Supported {
		v := reflect.ValueOf(c.Notifications)
		for i := range v.NumField() {
			if v.Field(i).Kind() != reflect.String {
				continue
			}
			field, got := v.Type().Field(i).Name, v.Field(i).String()
			if got == "" {
				t.Errorf("%s: Notifications.%s is empty", c.Lang, field)
			}
			if want := strings.Count(en.Field(i).String(), "%s"); strings.Count(got, "%s") != want {
				t.Errorf("%s: Notifications.%s has %d %%s, want %d", c.Lang, field, strings.Count(got, "%s"), want)
			}
		}
		for _, tr := range models.NotificationTriggers {
			if c.Notifications.Triggers[string(tr)] == "" || c.Notifications.EmailTriggers[string(tr)] == "" {
				t.Errorf("%s: trigger %s has no words", c.Lang, tr)
			}
		}
		if len(c.Notifications.Triggers) != len(models.NotificationTriggers) || len(c.Notifications.EmailTriggers) != len(models.NotificationTriggers) {
			t.Errorf("%s: words for triggers that do not exist", c.Lang)
		}
	}
}
