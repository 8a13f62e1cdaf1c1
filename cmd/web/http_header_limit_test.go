package main

import (
	"fmt"
	"net/http"
	"path/filepath"
	"strings"
	"testing"
)

// TestServeRefusesOversizedHeaders: `web serve` answers a request whose headers exceed
// maxHeaderBytes (and net/http's 4 KiB slack) with 431 before any handler runs, and still takes the largest bearer token
// the verifier accepts (auth.MaxTokenBytes) with a browser's usual headers.
func TestServeRefusesOversizedHeaders(t *testing.T) {
	base := startServe(t, productionVars(filepath.Join(t.TempDir(), "ut.db")), "--migrate")
	get := func(header http.Header) int {
		t.Helper()
		req, _ := http.NewRequest(http.MethodGet, base+"/api/v1/user-tasks", nil)
		for k, v := range header {
			req.Header[k] = v
		}
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		return res.StatusCode
	}
	t.Run("OneHugeHeader", func(t *testing.T) {
		if got := get(http.Header{"X-Big": {strings.Repeat("a", maxHeaderBytes+8<<10)}}); got != http.StatusRequestHeaderFieldsTooLarge {
			t.Errorf("status %d, want 431", got)
		}
	})
	t.Run("ManySmallHeaders", func(t *testing.T) {
		h := http.Header{}
		for i := range 2000 { // 2,000 headers of about 40 bytes: over the limit only together
			h.Set(fmt.Sprintf("X-Header-%04d", i), "0123456789012345678901234")
		}
		if got := get(h); got != http.StatusRequestHeaderFieldsTooLarge {
			t.Errorf("status %d, want 431", got)
		}
	})
	t.Run("LargestTokenStillRead", func(t *testing.T) {
		h := http.Header{"Authorization": {"Bearer " + strings.Repeat("a", 32<<10)}, "Cookie": {strings.Repeat("c", 4<<10)},
			"User-Agent": {strings.Repeat("u", 512)}}
		if got := get(h); got != http.StatusUnauthorized {
			t.Errorf("status %d, want 401 (read, then refused as a token)", got)
		}
	})
}
