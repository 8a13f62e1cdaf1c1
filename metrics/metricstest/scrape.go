// Package metricstest scrapes a /metrics answer and parses it with the Prometheus text parser,
// for tests that check the named series after real requests.
package metricstest

import (
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	dto "github.com/prometheus/client_model/go"
	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"
)

// Families is one parsed scrape, by metric name.
type Families map[string]*dto.MetricFamily

// Parse parses a text exposition; a body the parser refuses fails the test.
func Parse(t *testing.T, body io.Reader) Families {
	t.Helper()
	p := expfmt.NewTextParser(model.UTF8Validation)
	fams, err := p.TextToMetricFamilies(body)
	if err != nil {
		t.Fatalf("parse exposition: %v", err)
	}
	return fams
}

// Scrape asks h for GET /metrics (with the request's header set by prepare, if any), expects
// 200 and parses the answer.
func Scrape(t *testing.T, h http.Handler, prepare func(*http.Request)) Families {
	t.Helper()
	req := httptest.NewRequest(http.MethodGet, "/metrics", nil)
	if prepare != nil {
		prepare(req)
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	if rec.Code != http.StatusOK {
		t.Fatalf("GET /metrics = %d %s", rec.Code, rec.Body.String())
	}
	return Parse(t, rec.Body)
}

// Series returns the samples of the named metric whose labels include want (all of them).
func (f Families) Series(name string, want map[string]string) []*dto.Metric {
	fam, ok := f[name]
	if !ok {
		return nil
	}
	var out []*dto.Metric
	for _, m := range fam.GetMetric() {
		if hasLabels(m, want) {
			out = append(out, m)
		}
	}
	return out
}

// Value is the value of the one sample of name with labels want: a counter's or gauge's
// value, a histogram's sample count. It fails the test unless exactly one sample matches.
func (f Families) Value(t *testing.T, name string, want map[string]string) float64 {
	t.Helper()
	got := f.Series(name, want)
	if len(got) != 1 {
		t.Fatalf("%s%v: %d samples, want 1 (have %s)", name, want, len(got), f.describe(name))
	}
	m := got[0]
	switch {
	case m.Counter != nil:
		return m.GetCounter().GetValue()
	case m.Gauge != nil:
		return m.GetGauge().GetValue()
	case m.Histogram != nil:
		return float64(m.GetHistogram().GetSampleCount())
	case m.Untyped != nil:
		return m.GetUntyped().GetValue()
	}
	t.Fatalf("%s%v: no value", name, want)
	return 0
}

// LabelValues lists every value the label takes across the named metric's samples.
func (f Families) LabelValues(name, label string) []string {
	var out []string
	for _, m := range f.Series(name, nil) {
		for _, l := range m.GetLabel() {
			if l.GetName() == label {
				out = append(out, l.GetValue())
			}
		}
	}
	return out
}

func hasLabels(m *dto.Metric, want map[string]string) bool {
	have := map[string]string{}
	for _, l := range m.GetLabel() {
		have[l.GetName()] = l.GetValue()
	}
	for k, v := range want {
		if have[k] != v {
			return false
		}
	}
	return true
}

// describe lists the samples of a metric, for failure messages.
func (f Families) describe(name string) string {
	var b strings.Builder
	for _, m := range f.Series(name, nil) {
		b.WriteString("{")
		for i, l := range m.GetLabel() {
			if i > 0 {
				b.WriteString(",")
			}
			b.WriteString(l.GetName() + "=" + l.GetValue())
		}
		b.WriteString("} ")
	}
	return b.String()
}
