package metrics_test

import (
	"testing"
	"time"

	"usertasks/metrics"
	"usertasks/metrics/metricstest"
)

// The notification instruments count outcomes per channel and hold the last backlog age; a
// registry that never heard of notifications exports none of their series.
func TestNotificationMetrics(t *testing.T) {
	quiet := metricstest.Scrape(t, metrics.New().Handler(), nil)
	if len(quiet.Series("usertasks_notifications_delivered_total", nil))+len(quiet.Series("usertasks_notifications_backlog_age_seconds", nil)) != 0 {
		t.Fatal("a node without the notification worker exports its counter")
	}

	m := metrics.New()
	m.NotificationDelivered("in-app", "shown")
	m.NotificationDelivered("in-app", "shown")
	m.NotificationDelivered("webhook", "retried")
	m.NotificationBacklog(90 * time.Second)
	f := metricstest.Scrape(t, m.Handler(), nil)
	for _, c := range []struct {
		name   string
		labels map[string]string
		want   float64
	}{
		{"usertasks_notifications_delivered_total", map[string]string{"channel": "in-app", "outcome": "shown"}, 2},
		{"usertasks_notifications_delivered_total", map[string]string{"channel": "webhook", "outcome": "retried"}, 1},
		{"usertasks_notifications_backlog_age_seconds", nil, 90},
	} {
		if got := f.Value(t, c.name, c.labels); got != c.want {
			t.Errorf("%s%v = %v, want %v", c.name, c.labels, got, c.want)
		}
	}
}
