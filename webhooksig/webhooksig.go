// Package webhooksig signs the bodies of the outgoing webhooks (the invitation dispatcher's and
// the notifications') the one way, so that a receiver checks both alike.
package webhooksig

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"net/http"
	"net/url"
	"time"
)

// MinSecret is the shortest webhook secret accepted.
const MinSecret = 32

// Header carries the signature.
const Header = "X-UserTasks-Signature"

// Sign is the Header value of body under secret: "sha256=" and the hex HMAC-SHA256.
func Sign(body, secret []byte) string {
	mac := hmac.New(sha256.New, secret)
	mac.Write(body)
	return "sha256=" + hex.EncodeToString(mac.Sum(nil))
}

// Endpoint is where a webhook posts and with what it signs: both webhooks check their
// configuration the same way and follow no redirect (a redirect is a failed attempt).
type Endpoint struct {
	URL    string
	Secret []byte
	Client *http.Client
}

// NewEndpoint checks rawURL (absolute http or https, a path allowed, no credentials or
// fragment) and secret (at least MinSecret characters). client nil is a client with timeout
// (default 10 s) that follows no redirect.
func NewEndpoint(rawURL, secret string, timeout time.Duration, client *http.Client) (Endpoint, error) {
	u, err := url.Parse(rawURL)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.User != nil || u.Fragment != "" {
		return Endpoint{}, fmt.Errorf("the webhook URL must be an absolute http(s) URL without credentials or fragment")
	}
	if len(secret) < MinSecret {
		return Endpoint{}, fmt.Errorf("the webhook secret must be at least %d characters", MinSecret)
	}
	if timeout <= 0 {
		timeout = 10 * time.Second
	}
	if client == nil {
		client = &http.Client{Timeout: timeout, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	}
	return Endpoint{URL: u.String(), Secret: []byte(secret), Client: client}, nil
}
