package i18n

import (
	"reflect"
	"strings"
	"testing"

	"usertasks/models"
)

// TestAccessTextComplete: every word of "Check access" and every rule of the policy is said in
// every language, each rule's sentence with exactly the values the rule names.
func TestAccessTextComplete(t *testing.T) {
	for _, c := range Supported {
		t.Run(c.Lang, func(t *testing.T) {
			v := reflect.ValueOf(c.Access)
			for i := range v.NumField() {
				if f := v.Field(i); f.Kind() == reflect.String && f.String() == "" {
					t.Errorf("Access.%s is empty", v.Type().Field(i).Name)
				}
			}
			for _, op := range []string{AccessView, AccessClaim, AccessComplete} {
				if c.Access.Operations[op] == "" {
					t.Errorf("operation %s has no name", op)
				}
			}
			if len(c.Access.Rules) != len(models.Rules()) {
				t.Errorf("%d rule sentences, want %d", len(c.Access.Rules), len(models.Rules()))
			}
			for _, r := range models.Rules() {
				s, ok := c.Access.Rules[r]
				if !ok || s == "" {
					t.Errorf("rule %s has no sentence", r)
					continue
				}
				if got, want := strings.Count(s, "%s"), models.RuleArgs(r); got != want || strings.Count(s, "%") != want {
					t.Errorf("rule %s: %d placeholders, want %d: %q", r, got, want, s)
				}
			}
			if got := c.Access.Rule(models.RulePermission, "user-tasks:view", "user-tasks:*"); !strings.Contains(got, "user-tasks:view") || !strings.Contains(got, "user-tasks:*") {
				t.Errorf("permission sentence %q", got)
			}
			if got := c.Access.Rule("no-such-rule"); got != "no-such-rule" {
				t.Errorf("unknown rule says %q", got)
			}
		})
	}
}
