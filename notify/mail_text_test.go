package notify

import (
	"reflect"
	"strings"
	"testing"

	"usertasks/models"
)

// TestMailTextComplete: every word of a mail is said in every language, for every trigger
// and digest period, and the format strings take what the mailer gives them.
func TestMailTextComplete(t *testing.T) {
	for _, w := range []*mailText{englishMail, germanMail} {
		v := reflect.ValueOf(*w)
		for i := range v.NumField() {
			f, name := v.Field(i), v.Type().Field(i).Name
			switch f.Kind() {
			case reflect.String:
				if f.String() == "" {
					t.Errorf("%s: %s is empty", w.Page.Lang, name)
				}
			case reflect.Array:
				for j := range f.Len() {
					if !strings.Contains(f.Index(j).String(), "%d") {
						t.Errorf("%s: %s[%d] = %q lacks %%d", w.Page.Lang, name, j, f.Index(j).String())
					}
				}
			}
		}
		for _, tr := range models.NotificationTriggers {
			for name, m := range map[string]map[models.NotificationTrigger]string{"Subjects": w.Subjects, "Names": w.Names, "Events": w.Events, "LeadsNoActor": w.LeadsNoActor} {
				if m[tr] == "" || strings.Contains(m[tr], "%") != (name == "Subjects") {
					t.Errorf("%s: %s[%s] = %q", w.Page.Lang, name, tr, m[tr])
				}
			}
			// A lead with an actor names them, unless the trigger has no actor (time-based).
			if l := w.Leads[tr]; l == "" || strings.Count(l, "%s") > 1 {
				t.Errorf("%s: Leads[%s] = %q", w.Page.Lang, tr, l)
			}
		}
		for _, p := range []models.DigestPeriod{models.DigestOff, models.DigestHourly, models.DigestDaily} {
			if w.DigestSubject[p] == "" {
				t.Errorf("%s: DigestSubject[%s] is empty", w.Page.Lang, p)
			}
		}
		if !strings.Contains(w.Why, "%s") || !strings.Contains(w.ByActor, "%s") {
			t.Errorf("%s: Why or ByActor lacks %%s", w.Page.Lang)
		}
	}
	if mailTextFor("de-AT") != germanMail || mailTextFor("en-GB") != englishMail || mailTextFor("") != englishMail {
		t.Error("language choice")
	}
}
