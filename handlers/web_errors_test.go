package handlers_test

import (
	"bytes"
	"net/http"
	"strings"
	"testing"
)

// browserAccept is what Chromium sends when it navigates to a page.
const browserAccept = "text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,image/apng,*/*;q=0.8"

// TestBrowserErrorsAreHTML: outside /api/, a client that prefers HTML gets the HTML error page
// with the page's security headers; API paths and JSON clients keep problem+json.
func TestBrowserErrorsAreHTML(t *testing.T) {
	f := newWebFixture(t)
	signedIn := f.signIn(t, "ann")
	anonymous := f.browser(t)
	for _, tc := range []struct {
		name, method, path, accept string
		b                          *webBrowser
		status                     int
		html                       bool
	}{
		{"UnknownPathSignedIn", http.MethodGet, "/no/such/page", browserAccept, signedIn, http.StatusNotFound, true},
		{"UnknownPathAnonymous", http.MethodGet, "/no/such/page", browserAccept, anonymous, http.StatusNotFound, true},
		{"TasksWithoutID", http.MethodGet, "/tasks", browserAccept, signedIn, http.StatusNotFound, true},
		{"TasksSlash", http.MethodGet, "/tasks/", browserAccept, signedIn, http.StatusNotFound, true},
		{"WrongMethod", http.MethodGet, "/logout", browserAccept, signedIn, http.StatusMethodNotAllowed, true},
		{"HTMLRankedAboveJSON", http.MethodGet, "/nope", "application/json;q=0.5, text/html", signedIn, http.StatusNotFound, true},
		{"JSONClientOutsideAPI", http.MethodGet, "/nope", "application/json", signedIn, http.StatusNotFound, false},
		{"AnyTypeOutsideAPI", http.MethodGet, "/nope", "*/*", signedIn, http.StatusNotFound, false},
		{"NoAcceptOutsideAPI", http.MethodGet, "/nope", "", signedIn, http.StatusNotFound, false},
		{"JSONRankedAboveHTML", http.MethodGet, "/nope", "text/html;q=0.1, application/json", signedIn, http.StatusNotFound, false},
		{"APIPathFromABrowser", http.MethodGet, "/api/v1/nope", browserAccept, signedIn, http.StatusNotFound, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			req, _ := http.NewRequest(tc.method, f.srv.URL+tc.path, nil)
			if tc.accept != "" {
				req.Header.Set("Accept", tc.accept)
			}
			p := tc.b.do(req)
			if p.status != tc.status {
				t.Fatalf("status %d, want %d; body %.200q", p.status, tc.status, p.body)
			}
			ct := p.header.Get("Content-Type")
			if !tc.html {
				if ct != "application/problem+json" {
					t.Fatalf("Content-Type %q, want problem+json", ct)
				}
				return
			}
			if !strings.HasPrefix(ct, "text/html") {
				t.Fatalf("Content-Type %q, want HTML; body %.200q", ct, p.body)
			}
			p.one("error-page")
			if got := p.header.Get("Content-Security-Policy"); !strings.Contains(got, "default-src 'self'") {
				t.Errorf("CSP %q missing on the HTML error page", got)
			}
			if strings.Contains(p.body, "not-found") || strings.Contains(p.body, "method-not-allowed") {
				t.Errorf("the page shows a raw problem code")
			}
		})
	}
	t.Run("German", func(t *testing.T) {
		signedIn.lang = "de"
		defer func() { signedIn.lang = "" }()
		req, _ := http.NewRequest(http.MethodGet, f.srv.URL+"/tasks", nil)
		req.Header.Set("Accept", browserAccept)
		p := signedIn.do(req)
		if p.header.Get("Content-Language") != "de" {
			t.Fatalf("Content-Language %q, want de", p.header.Get("Content-Language"))
		}
	})
}

// TestFavicon: browsers fetch /favicon.ico on their own; it is a real icon, not an error.
func TestFavicon(t *testing.T) {
	f := newWebFixture(t)
	req, _ := http.NewRequest(http.MethodGet, f.srv.URL+"/favicon.ico", nil)
	req.Header.Set("Accept", "image/avif,image/webp,image/apng,image/*,*/*;q=0.8")
	p := f.browser(t).do(req)
	if p.status != http.StatusOK {
		t.Fatalf("status %d, want 200", p.status)
	}
	if ct := p.header.Get("Content-Type"); ct != "image/x-icon" && ct != "image/vnd.microsoft.icon" {
		t.Errorf("Content-Type %q, want an icon", ct)
	}
	// An ICO file starts with reserved 0, type 1 (icon).
	if !bytes.HasPrefix([]byte(p.body), []byte{0, 0, 1, 0}) {
		t.Errorf("the body is not an ICO file: % x", p.body[:min(8, len(p.body))])
	}
}
