package oidctest

import (
	"net/http"
	"net/url"
	"slices"
)

// logoutState is what the provider offers for signing out and what it was asked.
type logoutState struct {
	// off: the discovery document advertises neither endpoint.
	off bool
	// authMethods is the revocation_endpoint_auth_methods_supported advertised (nil: none).
	authMethods []string
	// status answers revocations (0: 200).
	status      int
	revocations []Revocation
	endSessions []url.Values
}

// Revocation is one request to the revocation endpoint (RFC 7009).
type Revocation struct {
	Form url.Values
	// User and Password are the HTTP Basic credentials, if any.
	User, Password string
	BasicAuth      bool
}

// discover adds the sign-out endpoints to a discovery document.
func (l *logoutState) discover(doc map[string]any, base string) {
	if l.off {
		return
	}
	doc["revocation_endpoint"] = base + "/revoke"
	doc["end_session_endpoint"] = base + "/end_session?tenant=acme"
	if l.authMethods != nil {
		doc["revocation_endpoint_auth_methods_supported"] = l.authMethods
	}
}

// revoke is the revocation endpoint: it records the request and, unless told to fail, refuses
// the refresh token from now on (an unknown token is answered 200 too, as RFC 7009 says).
func (p *Provider) revoke(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost {
		http.Error(w, "POST only", http.StatusMethodNotAllowed)
		return
	}
	r.ParseForm()
	rev := Revocation{Form: r.PostForm}
	rev.User, rev.Password, rev.BasicAuth = r.BasicAuth()
	p.mu.Lock()
	p.logout.revocations = append(p.logout.revocations, rev)
	status := p.logout.status
	if status == 0 {
		delete(p.refresh, r.PostForm.Get("token"))
	}
	p.mu.Unlock()
	if status != 0 {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(status)
		// A provider that echoes what it was sent: the app must not log it.
		w.Write([]byte(`{"error":"invalid_client","token":"` + url.QueryEscape(r.PostForm.Get("token")) + `"}`))
	}
}

// endSession is the end-session endpoint: it records the request and sends the browser back
// to post_logout_redirect_uri with the state.
func (p *Provider) endSession(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	p.mu.Lock()
	p.logout.endSessions = append(p.logout.endSessions, q)
	p.mu.Unlock()
	back, err := url.Parse(q.Get("post_logout_redirect_uri"))
	if err != nil || back.Scheme == "" {
		w.Write([]byte("signed out"))
		return
	}
	bq := back.Query()
	bq.Set("state", q.Get("state"))
	back.RawQuery = bq.Encode()
	http.Redirect(w, r, back.String(), http.StatusFound)
}

// WithoutLogout makes the discovery document advertise neither a revocation nor an
// end-session endpoint. Call it before the client discovers the provider.
func (p *Provider) WithoutLogout() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.logout.off = true
}

// SetRevocationAuthMethods sets the revocation_endpoint_auth_methods_supported advertised.
// Call it before the client discovers the provider.
func (p *Provider) SetRevocationAuthMethods(methods ...string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.logout.authMethods = methods
}

// FailRevocations makes the revocation endpoint answer status (with the token in the body).
func (p *Provider) FailRevocations(status int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.logout.status = status
}

// Revocations are the requests the revocation endpoint received.
func (p *Provider) Revocations() []Revocation {
	p.mu.Lock()
	defer p.mu.Unlock()
	return slices.Clone(p.logout.revocations)
}

// EndSessions are the queries the end-session endpoint received.
func (p *Provider) EndSessions() []url.Values {
	p.mu.Lock()
	defer p.mu.Unlock()
	return slices.Clone(p.logout.endSessions)
}

// Redeemable reports whether the provider would still redeem the refresh token.
func (p *Provider) Redeemable(refreshToken string) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.refresh[refreshToken]
}
