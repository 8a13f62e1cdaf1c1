package i18n

import (
	"reflect"
	"testing"
)

// TestAssigneeFilterTextComplete walks the nested assignee filter text, which the catalogue
// test does not.
func TestAssigneeFilterTextComplete(t *testing.T) {
	for _, c := range Supported {
		v := reflect.ValueOf(c.AssigneeFilter)
		for i := range v.NumField() {
			if v.Field(i).String() == "" {
				t.Errorf("%s: AssigneeFilter.%s is empty", c.Lang, v.Type().Field(i).Name)
			}
		}
	}
}
