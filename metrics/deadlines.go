package metrics

import (
	"sync"

	"github.com/prometheus/client_golang/prometheus"
)

// deadlineMetrics count the deadlines the due sweep settles (workers.DeadlineObserver),
// registered on first use so a node that never settled one exports none.
type deadlineMetrics struct {
	once    sync.Once
	settled *prometheus.CounterVec
}

// DeadlineSettled counts one deadline the due sweep settled: outcome fired (it escalated the
// task) or skipped (the task was taken or closed first).
func (m *Metrics) DeadlineSettled(outcome string) {
	d := &m.deadlines
	d.once.Do(func() {
		d.settled = prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "usertasks_deadlines_settled_total",
			Help: "Deadlines the due sweep settled, by outcome (fired, skipped).",
		}, []string{"outcome"})
		m.reg.MustRegister(d.settled)
	})
	d.settled.WithLabelValues(outcome).Inc()
}
