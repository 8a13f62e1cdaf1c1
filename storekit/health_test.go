package storekit

import (
	"testing"

	"usertasks/models"
)

// TestHealthUpdateApplies: a worker's finding is written on open and transitional tasks whose
// finding is not blocking, a clearing only over its own code; terminal tasks and blocking
// findings are left alone.
func TestHealthUpdateApplies(t *testing.T) {
	set, err := SetHealth(models.Health{Severity: models.SeverityAdvisory, Code: "slow"})
	if err != nil {
		t.Fatal(err)
	}
	advisory := func(status models.Status, sev models.Severity, code string) *TaskRow {
		return &TaskRow{Status: string(status), HealthSeverity: Opt(string(sev)), HealthCode: Opt(code)}
	}
	for _, c := range []struct {
		name string
		u    HealthUpdate
		row  *TaskRow
		want bool
	}{
		{"SetOnOpen", set, advisory(models.StatusAvailable, "", ""), true},
		{"SetOnTransitional", set, advisory(models.StatusCompleting, models.SeverityAdvisory, "other"), true},
		{"SetOnTerminal", set, advisory(models.StatusCompleted, "", ""), false},
		{"SetOverBlocking", set, advisory(models.StatusAvailable, models.SeverityBlocking, "stuck"), false},
		{"ClearOwnCode", ClearHealth("slow"), advisory(models.StatusAssigned, models.SeverityAdvisory, "slow"), true},
		{"ClearOtherCode", ClearHealth("slow"), advisory(models.StatusAssigned, models.SeverityAdvisory, "other"), false},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := c.u.Applies(c.row); got != c.want {
				t.Fatalf("applies %v, want %v", got, c.want)
			}
		})
	}
	row := advisory(models.StatusAssigned, models.SeverityAdvisory, "slow")
	ClearHealth("slow").Apply(row)
	if row.HealthSeverity != nil || row.HealthCode != nil || row.HealthMessage != nil {
		t.Fatalf("after clearing: %v %v %v, want no finding", row.HealthSeverity, row.HealthCode, row.HealthMessage)
	}
	if _, err := SetHealth(models.Health{Severity: models.SeverityBlocking, Code: "stuck"}); err == nil {
		t.Fatal("a worker set a blocking finding")
	}
}
