package storekit

import (
	"strings"
	"testing"
	"time"

	"usertasks/models"
)

// TestAbsenceRow: an absence round-trips through its row; a substitute's name that does not fit
// is dropped, never a reason to refuse the absence.
func TestAbsenceRow(t *testing.T) {
	c := Codec{Precision: time.Microsecond}
	from := time.Date(2026, 7, 1, 8, 0, 0, 0, time.UTC)
	a, err := models.NewAbsence("t1", ruleUser("ann"), from, from.Add(time.Hour), ruleUser("ben"))
	if err != nil {
		t.Fatal(err)
	}
	a.CreatedAt, a.UpdatedAt = from, from
	if got := c.Absence(ptrTo(c.AbsenceRow(&a))); got != a {
		t.Fatalf("round trip %+v, want %+v", got, a)
	}
	a.Substitute.DisplayName = strings.Repeat("n", 300)
	if err := CheckAbsence(a); err != nil {
		t.Fatalf("a long directory name refused the absence: %v", err)
	}
	if r := c.AbsenceRow(&a); r.SubstituteDisplay != nil {
		t.Fatalf("kept a name of %d bytes", len(*r.SubstituteDisplay))
	}
	a.Substitute = ruleUser("ann")
	if err := CheckAbsence(a); err == nil {
		t.Fatal("the absent user as substitute was not refused")
	}
}
