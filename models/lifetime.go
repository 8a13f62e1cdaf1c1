package models

import (
	"errors"
	"math"
	"strconv"
	"strings"
	"time"
)

// MaxInvitationLifetime bounds an invitation lifetime; a guest link that outlives a year is a mistake.
const MaxInvitationLifetime = 366 * 24 * time.Hour

// ParseLifetime reads an invitation lifetime, an ISO 8601 duration such as `P7D`, `PT36H`,
// `P1DT12H` or `P2W`. Weeks, days, hours, minutes and (fractional) seconds are accepted; years
// and months are refused because their length depends on the calendar. The duration must be
// positive and at most 366 days.
func ParseLifetime(s string) (time.Duration, error) {
	total, err := isoSeconds(s)
	if err != nil {
		return 0, err
	}
	if total <= 0 {
		return 0, errors.New("must be longer than zero")
	}
	if total > MaxInvitationLifetime.Seconds() {
		return 0, errors.New("must be at most 366 days")
	}
	return time.Duration(math.Round(total * float64(time.Second))), nil
}

// isoSeconds reads an ISO 8601 duration of weeks, days, hours, minutes and (fractional)
// seconds as seconds; years and months are refused (their length depends on the calendar).
func isoSeconds(s string) (float64, error) {
	rest, ok := strings.CutPrefix(s, "P")
	if !ok || rest == "" || strings.HasSuffix(rest, "T") {
		return 0, errors.New("must be an ISO 8601 duration such as P7D or PT12H")
	}
	datePart, timePart, hasTime := strings.Cut(rest, "T")
	if hasTime && timePart == "" {
		return 0, errors.New("must be an ISO 8601 duration such as P7D or PT12H")
	}
	var total float64
	dateUnits := []durationUnit{{'Y', 0}, {'M', 0}, {'W', 7 * 24 * 3600}, {'D', 24 * 3600}}
	timeUnits := []durationUnit{{'H', 3600}, {'M', 60}, {'S', 1}}
	d, err := sumUnits(datePart, dateUnits, false)
	if err != nil {
		return 0, err
	}
	total += d
	if hasTime {
		d, err := sumUnits(timePart, timeUnits, true)
		if err != nil {
			return 0, err
		}
		total += d
	}
	return total, nil
}

// durationUnit is one designator of an ISO 8601 duration and its length in seconds; zero marks
// a calendar unit that is refused.
type durationUnit struct {
	designator byte
	seconds    float64
}

// sumUnits adds up "nX" groups that appear in the order of units, each at most once. Only the
// last group (seconds) may have a fraction.
func sumUnits(part string, units []durationUnit, fractionalSeconds bool) (float64, error) {
	var total float64
	next := 0
	for part != "" {
		i := strings.IndexFunc(part, func(r rune) bool { return (r < '0' || r > '9') && r != '.' && r != ',' })
		if i <= 0 {
			return 0, errors.New("must be an ISO 8601 duration such as P7D or PT12H")
		}
		num, designator := strings.ReplaceAll(part[:i], ",", "."), part[i]
		part = part[i+1:]
		found := -1
		for j := next; j < len(units); j++ {
			if units[j].designator == designator {
				found = j
				break
			}
		}
		if found < 0 {
			return 0, errors.New("must be an ISO 8601 duration such as P7D or PT12H")
		}
		u := units[found]
		if u.seconds == 0 {
			return 0, errors.New("must not use years or months; use weeks, days or hours")
		}
		if strings.Contains(num, ".") && !(fractionalSeconds && designator == 'S' && part == "") {
			return 0, errors.New("only seconds may have a fraction")
		}
		v, err := strconv.ParseFloat(num, 64)
		if err != nil || math.IsInf(v, 0) {
			return 0, errors.New("must be an ISO 8601 duration such as P7D or PT12H")
		}
		total += v * u.seconds
		next = found + 1
	}
	return total, nil
}
