// Package metrics holds the Prometheus instruments of User Tasks on a registry of its own
// (never the global one, so tests do not share state). The packages that own an event tell it
// through small interfaces they declare themselves (handlers.RequestObserver,
// tasks.CommandObserver, workers.RunObserver); what waits in the database is read at scrape
// time through BacklogSource. No series carries a tenant, task, person or raw path: labels are
// route templates, command kinds, outcome classes and worker names.
package metrics

import (
	"database/sql"
	"errors"
	"net/http"
	"sort"
	"strconv"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"usertasks/models"
)

// Metrics is the registry and the instruments the application records into.
type Metrics struct {
	reg        *prometheus.Registry
	requests   *prometheus.HistogramVec
	commands   *prometheus.CounterVec
	conflicts  *prometheus.CounterVec
	workerRuns *prometheus.HistogramVec
	notify     notificationMetrics // notifications.go
	deadlines  deadlineMetrics     // deadlines.go
}

// New builds the instruments on a fresh registry, with the Go runtime and process collectors.
func New() *Metrics {
	m := &Metrics{
		reg: prometheus.NewRegistry(),
		requests: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name:    "usertasks_http_request_duration_seconds",
			Help:    "HTTP request latency by method, route template and status class.",
			Buckets: []float64{.005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5, 10},
		}, []string{"method", "route", "status"}),
		commands: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "usertasks_commands_total",
			Help: "Task commands by kind and outcome (applied, replayed, conflict, or the refusal's class).",
		}, []string{"kind", "outcome"}),
		conflicts: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "usertasks_conflicts_total",
			Help: "Commands refused with a 409, by kind and conflict code.",
		}, []string{"kind", "code"}),
		workerRuns: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name:    "usertasks_worker_run_duration_seconds",
			Help:    "Background worker runs and their durations, by worker and outcome (its _count is the number of runs).",
			Buckets: []float64{.001, .005, .025, .1, .5, 1, 5, 15, 60, 300},
		}, []string{"worker", "outcome"}),
	}
	m.reg.MustRegister(m.requests, m.commands, m.conflicts, m.workerRuns,
		collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	return m
}

// Registry is the registry itself, for tests and further collectors.
func (m *Metrics) Registry() *prometheus.Registry { return m.reg }

// Handler serves the exposition of the registry (unprotected: the caller guards it).
func (m *Metrics) Handler() http.Handler {
	return promhttp.HandlerFor(m.reg, promhttp.HandlerOpts{Registry: m.reg})
}

// knownMethods bounds the method label: anything else counts as "other".
var knownMethods = map[string]bool{
	http.MethodGet: true, http.MethodHead: true, http.MethodPost: true, http.MethodPut: true,
	http.MethodPatch: true, http.MethodDelete: true, http.MethodOptions: true,
}

// ObserveRequest records one answered request. route is the router's template
// ("/api/v1/user-tasks/:id"), never the raw path; an empty route (no route matched) is
// "unmatched".
func (m *Metrics) ObserveRequest(method, route string, status int, elapsed time.Duration) {
	if !knownMethods[method] {
		method = "other"
	}
	if route == "" {
		route = "unmatched"
	}
	m.requests.WithLabelValues(method, route, statusClass(status)).Observe(elapsed.Seconds())
}

// statusClass is "2xx", "4xx", …: the class, not the code, keeps the series few.
func statusClass(status int) string {
	if status < 100 || status > 599 {
		return "other"
	}
	return strconv.Itoa(status/100) + "xx"
}

// Command records one command's outcome.
func (m *Metrics) Command(kind models.OperationKind, replayed bool, err error) {
	outcome := CommandOutcome(replayed, err)
	m.commands.WithLabelValues(string(kind), outcome).Inc()
	if outcome == "conflict" {
		m.conflicts.WithLabelValues(string(kind), string(models.ErrorCode(err))).Inc()
	}
}

// CommandOutcome classes a command's answer: applied, replayed, conflict (409), or the class
// of the refusal: forbidden, not-found, invalid, unauthenticated, busy, capacity, corrupt,
// lease-lost, error (internal).
func CommandOutcome(replayed bool, err error) string {
	switch {
	case err == nil && replayed:
		return "replayed"
	case err == nil:
		return "applied"
	case errors.Is(err, models.ErrConflict):
		return "conflict"
	case errors.Is(err, models.ErrInvalid):
		return "invalid"
	}
	for _, c := range []struct {
		target  error
		outcome string
	}{
		{models.ErrForbidden, "forbidden"}, {models.ErrNotFound, "not-found"},
		{models.ErrUnauthorized, "unauthenticated"}, {models.ErrBusy, "busy"},
		{models.ErrCapacity, "capacity"}, {models.ErrCorrupt, "corrupt"}, {models.ErrLeaseLost, "lease-lost"},
	} {
		if errors.Is(err, c.target) {
			return c.outcome
		}
	}
	return "error"
}

// WorkerRun records one run of a background worker: outcome "ok", "error", or "skipped" when
// another node held the lease.
func (m *Metrics) WorkerRun(worker, outcome string, elapsed time.Duration) {
	m.workerRuns.WithLabelValues(worker, outcome).Observe(elapsed.Seconds())
}

// WatchPools exports sql.DBStats of each named connection pool (label db_name).
func (m *Metrics) WatchPools(pools map[string]*sql.DB) {
	names := make([]string, 0, len(pools))
	for name := range pools {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		m.reg.MustRegister(collectors.NewDBStatsCollector(pools[name], name))
	}
}

// WatchSubscribers exports the number of live-update (SSE) subscribers on this node.
func (m *Metrics) WatchSubscribers(count func() int) {
	m.reg.MustRegister(prometheus.NewGaugeFunc(prometheus.GaugeOpts{
		Name: "usertasks_live_subscribers",
		Help: "Open live-update (SSE) streams on this node.",
	}, func() float64 { return float64(count()) }))
}
