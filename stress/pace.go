package stress

import (
	"context"
	"errors"

	"golang.org/x/time/rate"
)

// pacer spaces the mixed mode's writes (or its readers' pages) to Options.Pace a second across
// all workers (a busy tenant's steady rate rather than as fast as the store goes); nil when
// unthrottled. The wait comes before a request is timed, so latencies stay the requests' own.
type pacer struct{ l *rate.Limiter }

// newPacer is the pacer of perSecond writes a second, nil for 0 (unthrottled). A burst of one
// keeps the writes evenly spaced: the writers never fire together after an idle moment.
func newPacer(perSecond int) *pacer {
	if perSecond <= 0 {
		return nil
	}
	return &pacer{rate.NewLimiter(rate.Limit(perSecond), 1)}
}

// wait blocks until the next request may go; an error means ctx ended first.
func (p *pacer) wait(ctx context.Context) error {
	if p == nil {
		return ctx.Err()
	}
	return p.l.Wait(ctx)
}

// ErrPace is a negative pace.
var ErrPace = errors.New("stress: the pace is writes per second: 0 (unthrottled) or more")
