package metrics_test

import (
	"testing"

	"usertasks/metrics"
	"usertasks/metrics/metricstest"
)

// The deadline counter counts settled deadlines by outcome; a node that settled none exports
// no series.
func TestDeadlineMetrics(t *testing.T) {
	quiet := metricstest.Scrape(t, metrics.New().Handler(), nil)
	if len(quiet.Series("usertasks_deadlines_settled_total", nil)) != 0 {
		t.Fatal("a node that settled no deadline exports the counter")
	}
	m := metrics.New()
	m.DeadlineSettled("fired")
	m.DeadlineSettled("fired")
	m.DeadlineSettled("skipped")
	f := metricstest.Scrape(t, m.Handler(), nil)
	for outcome, want := range map[string]float64{"fired": 2, "skipped": 1} {
		if got := f.Value(t, "usertasks_deadlines_settled_total", map[string]string{"outcome": outcome}); got != want {
			t.Errorf("outcome %s = %v, want %v", outcome, got, want)
		}
	}
}
