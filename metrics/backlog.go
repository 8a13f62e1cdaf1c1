package metrics

import (
	"context"
	"log/slog"
	"sync"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"usertasks/models"
)

// BacklogSource reads what waits in the outboxes; store.Store implements it.
type BacklogSource interface {
	Backlog(ctx context.Context) (models.Backlog, error)
}

// DefaultBacklogCache is how long one backlog read answers scrapes.
const DefaultBacklogCache = 5 * time.Second

// backlogTimeout bounds one backlog read, so a slow database cannot hang a scrape.
const backlogTimeout = 2 * time.Second

// WatchBacklog exports the outbox backlog, read from src at scrape time and cached for
// cacheFor (DefaultBacklogCache when zero): however many scrapes arrive, the database sees at
// most one read per period, and concurrent scrapes wait for the same read.
func (m *Metrics) WatchBacklog(src BacklogSource, cacheFor time.Duration, log *slog.Logger) {
	if cacheFor <= 0 {
		cacheFor = DefaultBacklogCache
	}
	if log == nil {
		log = slog.Default()
	}
	m.reg.MustRegister(&backlogCollector{src: src, every: cacheFor, log: log, now: time.Now})
}

var (
	descBacklogUp = prometheus.NewDesc("usertasks_backlog_read_up",
		"1 when the last backlog read succeeded, 0 when the database did not answer.", nil, nil)
	descResumptionsPending = prometheus.NewDesc("usertasks_resumption_outbox_pending",
		"Resumption outbox rows waiting for delivery to the workflow runtime.", nil, nil)
	descResumptionsOldest = prometheus.NewDesc("usertasks_resumption_outbox_oldest_pending_seconds",
		"How long the most overdue pending resumption has been due (0 when none is pending).", nil, nil)
	descDeliveries = prometheus.NewDesc("usertasks_invitation_deliveries",
		"Invitation deliveries by state: pending, retrying (pending after a failed attempt), abandoned (retries exhausted).",
		[]string{"state"}, nil)
)

// backlogCollector is the cached scrape-time read of the outboxes.
type backlogCollector struct {
	src   BacklogSource
	every time.Duration
	log   *slog.Logger
	now   func() time.Time

	mu     sync.Mutex
	readAt time.Time
	last   models.Backlog
	err    error
}

func (c *backlogCollector) Describe(ch chan<- *prometheus.Desc) {
	for _, d := range []*prometheus.Desc{descBacklogUp, descResumptionsPending, descResumptionsOldest, descDeliveries} {
		ch <- d
	}
}

func (c *backlogCollector) Collect(ch chan<- prometheus.Metric) {
	b, err := c.read()
	if err != nil {
		ch <- prometheus.MustNewConstMetric(descBacklogUp, prometheus.GaugeValue, 0)
		return
	}
	ch <- prometheus.MustNewConstMetric(descBacklogUp, prometheus.GaugeValue, 1)
	ch <- prometheus.MustNewConstMetric(descResumptionsPending, prometheus.GaugeValue, float64(b.ResumptionsPending))
	oldest := 0.0
	if !b.OldestResumptionDue.IsZero() {
		oldest = max(0, b.Now.Sub(b.OldestResumptionDue).Seconds())
	}
	ch <- prometheus.MustNewConstMetric(descResumptionsOldest, prometheus.GaugeValue, oldest)
	for state, n := range map[string]int{"pending": b.DeliveriesPending, "retrying": b.DeliveriesRetrying, "abandoned": b.DeliveriesAbandoned} {
		ch <- prometheus.MustNewConstMetric(descDeliveries, prometheus.GaugeValue, float64(n), state)
	}
}

// read returns the cached backlog, reading it again once it is older than every. A failed
// read is cached too, so an unreachable database is not asked on every scrape either.
func (c *backlogCollector) read() (models.Backlog, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if now := c.now(); c.readAt.IsZero() || now.Sub(c.readAt) >= c.every {
		ctx, cancel := context.WithTimeout(context.Background(), backlogTimeout)
		defer cancel()
		b, err := c.src.Backlog(ctx)
		if err != nil && c.err == nil {
			c.log.Warn("metrics: reading the outbox backlog failed", "error", err.Error())
		}
		// The age is taken at the read; a cached answer ages with the wall clock.
		c.last, c.err, c.readAt = b, err, now
	}
	b := c.last
	if !b.Now.IsZero() {
		b.Now = b.Now.Add(c.now().Sub(c.readAt))
	}
	return b, c.err
}
