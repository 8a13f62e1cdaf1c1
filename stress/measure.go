package stress

import (
	"context"
	"slices"
	"sync"
	"time"
)

// Outcome is how one operation ended.
type Outcome int

// The outcomes a Target reports.
const (
	Applied  Outcome = iota // the change was made (or the page read)
	Conflict                // refused with a conflict: the expected loss of a race
	Repeated                // a duplicate delivery answered with what exists
	Failed                  // anything else
)

// meter collects one figure's operations across rounds: latencies, outcomes and the wall time
// of the phases it was measured in.
type meter struct {
	mu        sync.Mutex
	latencies []time.Duration
	counts    [Failed + 1]int
	wall      time.Duration
	firstErr  error
}

// observe times fn and records its outcome.
func (m *meter) observe(fn func() (Outcome, error)) Outcome {
	start := time.Now()
	o, err := fn()
	d := time.Since(start)
	m.mu.Lock()
	defer m.mu.Unlock()
	m.latencies = append(m.latencies, d)
	m.counts[o]++
	if o == Failed && m.firstErr == nil {
		m.firstErr = err
	}
	return o
}

// rate records n operations over the wall time d, without their latencies (a figure of
// tasks carried through several steps, timed as a whole).
func (m *meter) rate(n int, d time.Duration) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.counts[Applied] += n
	m.wall += d
}

// phase runs n goroutines of fn(worker) and adds the wall time to the meters.
func phase(ctx context.Context, n int, fn func(ctx context.Context, worker int), meters ...*meter) {
	start := time.Now()
	var wg sync.WaitGroup
	for w := range n {
		wg.Go(func() { fn(ctx, w) })
	}
	wg.Wait()
	d := time.Since(start)
	for _, m := range meters {
		m.mu.Lock()
		m.wall += d
		m.mu.Unlock()
	}
}

// figure summarizes the meter under name.
func (m *meter) figure(name string) Figure {
	m.mu.Lock()
	defer m.mu.Unlock()
	ops := 0
	for _, n := range m.counts {
		ops += n
	}
	f := Figure{Name: name, Ops: ops, Applied: m.counts[Applied], Conflicts: m.counts[Conflict],
		Repeats: m.counts[Repeated], Errors: m.counts[Failed], Seconds: m.wall.Seconds()}
	if m.firstErr != nil {
		f.FirstError = m.firstErr.Error()
	}
	if f.Seconds > 0 {
		f.PerSecond = float64(f.Ops) / f.Seconds
	}
	sorted := slices.Clone(m.latencies)
	slices.Sort(sorted)
	f.P50, f.P95, f.P99 = millis(percentile(sorted, 50)), millis(percentile(sorted, 95)), millis(percentile(sorted, 99))
	return f
}

// percentile is the nearest-rank percentile of sorted latencies.
func percentile(sorted []time.Duration, p int) time.Duration {
	if len(sorted) == 0 {
		return 0
	}
	i := (p*len(sorted)+99)/100 - 1
	return sorted[max(0, min(i, len(sorted)-1))]
}

func millis(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }
