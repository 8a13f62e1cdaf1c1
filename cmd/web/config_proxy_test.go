package main

import (
	"net/http/httptest"
	"testing"
)

func TestTrustedProxiesDecideTheRemoteAddress(t *testing.T) {
	realIP := func(c *config, peer, xff string) string {
		r := httptest.NewRequest("GET", "/", nil)
		r.RemoteAddr = peer + ":4711"
		if xff != "" {
			r.Header.Set("X-Forwarded-For", xff)
		}
		return c.ipExtractor()(r)
	}
	var none config
	if got := realIP(&none, "127.0.0.1", "203.0.113.9"); got != "127.0.0.1" {
		t.Errorf("without trusted proxies a forwarding header counted: %s", got)
	}
	var c config
	if err := c.setTrustedProxies("USERTASKS_TRUSTED_PROXIES", " 10.0.0.0/8, 192.0.2.7 ,"); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ peer, xff, want string }{
		{"10.1.2.3", "203.0.113.9", "203.0.113.9"},
		{"192.0.2.7", "198.51.100.1, 203.0.113.9", "203.0.113.9"},
		{"10.1.2.3", "198.51.100.1, 10.9.9.9", "198.51.100.1"},
		{"198.51.100.2", "203.0.113.9", "198.51.100.2"}, // an untrusted peer cannot claim another address
		{"127.0.0.1", "203.0.113.9", "127.0.0.1"},       // loopback is not trusted unless listed
	} {
		if got := realIP(&c, tc.peer, tc.xff); got != tc.want {
			t.Errorf("peer %s, X-Forwarded-For %q: %s, want %s", tc.peer, tc.xff, got, tc.want)
		}
	}
	for _, bad := range []string{"proxy.example.org", "10.0.0.0/33", "1.2.3"} {
		if err := c.setTrustedProxies("USERTASKS_TRUSTED_PROXIES", bad); err == nil {
			t.Errorf("%q was accepted", bad)
		}
	}
}
