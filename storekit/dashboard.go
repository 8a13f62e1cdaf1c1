package storekit

import "usertasks/models"

// DashboardStatuses are the statuses the dashboard counts, one count each: the open and the
// transitional ones (terminal tasks, the bulk of a tenant, are the daily rollup's).
var DashboardStatuses = append(append([]models.Status{}, models.OpenStatuses...), models.TransitionalStatuses...)

// CountByStatus counts each of DashboardStatuses with count into byStatus, keeping only the
// statuses that have tasks.
func CountByStatus(byStatus map[models.Status]int, count func(models.Status) (int64, error)) error {
	for _, st := range DashboardStatuses {
		n, err := count(st)
		if err != nil {
			return err
		}
		if n > 0 {
			byStatus[st] = int(n)
		}
	}
	return nil
}
