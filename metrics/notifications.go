package metrics

import (
	"sync"
	"time"

	"github.com/prometheus/client_golang/prometheus"
)

// notificationMetrics are the delivery worker's instruments (notify.Observer), registered on
// first use so a node that runs no notification worker exports none.
type notificationMetrics struct {
	once      sync.Once
	delivered *prometheus.CounterVec
	backlog   prometheus.Gauge
}

func (m *Metrics) notifications() *notificationMetrics {
	n := &m.notify
	n.once.Do(func() {
		n.delivered = prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "usertasks_notifications_delivered_total",
			Help: "Notification outcomes by channel (in-app, email, webhook) and outcome (shown, sent, digest, off, retried, failed, dropped).",
		}, []string{"channel", "outcome"})
		n.backlog = prometheus.NewGauge(prometheus.GaugeOpts{
			Name: "usertasks_notifications_backlog_age_seconds",
			Help: "How long the oldest notification of the delivery worker's last batch had been due (0 when its last run found none).",
		})
		m.reg.MustRegister(n.delivered, n.backlog)
	})
	return n
}

// NotificationDelivered counts one notification outcome on one channel.
func (m *Metrics) NotificationDelivered(channel, outcome string) {
	m.notifications().delivered.WithLabelValues(channel, outcome).Inc()
}

// NotificationBacklog sets the age of the oldest notification the last batch claimed.
func (m *Metrics) NotificationBacklog(age time.Duration) {
	m.notifications().backlog.Set(age.Seconds())
}
