package notify

import (
	"time"

	"usertasks/models"
)

// PeriodEnd is when the digest period holding oldest ends, and whether it has by now: the end
// of its UTC hour (hourly), of its calendar day in loc (daily), or now for a person without a
// digest (their waiting rows go out at once).
func PeriodEnd(period models.DigestPeriod, oldest time.Time, loc *time.Location, now time.Time) (time.Time, bool) {
	var end time.Time
	switch period {
	case models.DigestHourly:
		end = oldest.UTC().Truncate(time.Hour).Add(time.Hour)
	case models.DigestDaily:
		o := oldest.In(loc)
		end = time.Date(o.Year(), o.Month(), o.Day()+1, 0, 0, 0, 0, loc)
	default:
		return now, true
	}
	return end, !end.After(now)
}
