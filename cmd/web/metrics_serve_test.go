package main

import (
	"net/http"
	"path/filepath"
	"regexp"
	"testing"

	"usertasks/metrics/metricstest"
)

var metricsURL = regexp.MustCompile(`url=(http://\S+/metrics)`)

// `web serve` wires the metrics: behind the token on the main listener, open on the metrics
// address, with the named series after real requests.
func TestServeMetrics(t *testing.T) {
	dir := t.TempDir()
	base, logs := startServeLogged(t, map[string]string{
		"USERTASKS_DEV":           "true",
		"USERTASKS_DATABASE_URL":  "sqlite:" + filepath.Join(dir, "ut.db"),
		"USERTASKS_METRICS_TOKEN": "scrape-secret",
		"USERTASKS_METRICS_ADDR":  "127.0.0.1:0",
	})
	if code, _ := get(t, base+"/readyz"); code != http.StatusOK {
		t.Fatalf("/readyz = %d", code)
	}
	if code, _ := get(t, base+"/metrics"); code != http.StatusUnauthorized {
		t.Fatalf("/metrics without the token = %d, want 401", code)
	}
	req, _ := http.NewRequest(http.MethodGet, base+"/metrics", nil)
	req.Header.Set("Authorization", "Bearer scrape-secret")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("/metrics with the token = %d", resp.StatusCode)
	}
	f := metricstest.Parse(t, resp.Body)
	if got := f.Value(t, "usertasks_http_request_duration_seconds", map[string]string{"method": "GET", "route": "/readyz", "status": "2xx"}); got < 1 {
		t.Errorf("readyz requests = %v", got)
	}
	for _, name := range []string{"usertasks_resumption_outbox_pending", "usertasks_live_subscribers", "usertasks_backlog_read_up"} {
		f.Value(t, name, nil)
	}
	for _, pool := range []string{"write", "read"} {
		f.Value(t, "go_sql_open_connections", map[string]string{"db_name": pool})
	}

	m := metricsURL.FindStringSubmatch(logs.String())
	if m == nil {
		t.Fatalf("no metrics address logged: %s", logs.String())
	}
	resp2, err := http.Get(m[1])
	if err != nil {
		t.Fatal(err)
	}
	defer resp2.Body.Close()
	if resp2.StatusCode != http.StatusOK {
		t.Fatalf("metrics address answered %d", resp2.StatusCode)
	}
	metricstest.Parse(t, resp2.Body).Value(t, "usertasks_live_subscribers", nil)
}
