package e2e

import (
	"context"
	"encoding/json"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"
)

// TestOIDCSignIn drives the OIDC sign-in in Chromium against a real OpenID provider (zitadel's
// op, oidc_idp_test.go): the app sends the browser to the provider, the provider's login page
// is filled in, and the browser comes back signed in — and every way that exchange can be
// tampered with or replayed is refused with the login page, no session, and the reason in the
// log; the sign-out revokes the refresh token and ends the session at the provider too.
// docs/reliability.md ("Identity provider") lists the cases.
func TestOIDCSignIn(t *testing.T) {
	chromiumPath(t)
	addr := freeLoopbackAddr(t)
	base := "http://" + addr
	provider := startIDP(t, base)
	srv := startServerEnv(t,
		"USERTASKS_LISTEN_ADDR="+addr,
		"USERTASKS_BASE_URL="+base,
		"USERTASKS_OIDC_ISSUER="+provider.URL,
		"USERTASKS_OIDC_CLIENT_ID="+idpClientID,
		"USERTASKS_OIDC_CLIENT_SECRET="+idpClientSecret,
	)
	b, shots := newBrowser(t), newShotLog(t)
	rig := &oidcRig{srv: srv, idp: provider, b: b, shots: shots}

	t.Run("CodeFlowWithPKCE", func(t *testing.T) {
		p := rig.open(t)
		p.startOIDC(true)
		res := p.finishOIDC()
		p.wantSignedIn(res)
		p.shot("inbox")

		auth := rig.idp.exchanges("/authorize")
		if len(auth) != 1 {
			t.Fatalf("%d authorization requests reached the provider, want 1", len(auth))
		}
		q := auth[0].Query
		if q.Get("code_challenge_method") != "S256" || len(q.Get("code_challenge")) != 43 {
			t.Errorf("authorization request: code_challenge_method %q, code_challenge %q; want S256 and a 43-character challenge",
				q.Get("code_challenge_method"), q.Get("code_challenge"))
		}
		if q.Get("state") == "" || q.Get("nonce") == "" || !slices.Contains(strings.Fields(q.Get("scope")), "openid") ||
			q.Get("response_type") != "code" || q.Get("client_id") != idpClientID || q.Get("redirect_uri") != base+"/login/oidc/callback" {
			t.Errorf("authorization request lacks state, nonce, scope openid, response_type code or the registered client: %v", q)
		}
		tok := rig.idp.exchanges("/oauth/token")
		if len(tok) != 1 {
			t.Fatalf("%d token requests reached the provider, want 1", len(tok))
		}
		f := tok[0].Form
		if f.Get("grant_type") != "authorization_code" || f.Get("code_verifier") == "" || s256(f.Get("code_verifier")) != q.Get("code_challenge") {
			t.Errorf("token request: grant_type %q, code_verifier %q does not answer the challenge %q",
				f.Get("grant_type"), f.Get("code_verifier"), q.Get("code_challenge"))
		}
		if tok[0].Status != http.StatusOK || !strings.Contains(tok[0].Body, `"id_token"`) {
			t.Errorf("the provider answered the token request %d %.200s; want 200 with an ID token", tok[0].Status, tok[0].Body)
		}
		// offline_access, which the provider offers, brings the refresh token that keeps the
		// session's identity current.
		if !slices.Contains(strings.Fields(q.Get("scope")), "offline_access") || !strings.Contains(tok[0].Body, `"refresh_token"`) {
			t.Errorf("scope %q and token answer without a refresh token: the session would end at its first refresh", q.Get("scope"))
		}
	})

	t.Run("PKCEVerifierRefusedByProvider", func(t *testing.T) {
		// The challenge is swapped on its way to the provider (as an attacker who injects a
		// stolen code would have it): the app's verifier no longer answers it, and the provider,
		// not the app, is the one to refuse.
		p := rig.open(t)
		rig.idp.set(func(q url.Values) { q.Set("code_challenge", s256("the attacker's verifier")) }, nil, 0)
		p.startOIDC(false)
		p.wantRefused(p.finishOIDC(), "invalid code_verifier", false)
		tok := rig.idp.exchanges("/oauth/token")
		if len(tok) != 1 || tok[0].Status != http.StatusBadRequest || !strings.Contains(tok[0].Body, "invalid_grant") {
			t.Errorf("the provider answered the token request with the wrong verifier %v; want 400 invalid_grant", tok)
		}
	})

	t.Run("WrongState", func(t *testing.T) {
		p := rig.open(t)
		rig.idp.set(nil, func(q url.Values) { q.Set("state", "tampered"+q.Get("state")) }, 0)
		p.startOIDC(false)
		p.wantRefused(p.finishOIDC(), "state mismatch", true)
		if tok := rig.idp.exchanges("/oauth/token"); len(tok) != 0 {
			t.Errorf("the app redeemed the code of a callback with a wrong state: %v", tok)
		}
	})

	t.Run("ReplayedCode", func(t *testing.T) {
		p := rig.open(t)
		p.startOIDC(false)
		state := p.cookie(oidcStateCookie)
		p.wantSignedIn(p.finishOIDC())
		callback := rig.idp.callbackURL(t)

		// The same callback in the same browser: the state cookie was used up. (The browser
		// keeps the session it already has.)
		p.wantRefusal(p.load(callback), "missing or expired state cookie")

		// An attacker holding both the callback and the state cookie: the app redeems the code
		// and the provider refuses it, since it was redeemed once already.
		q := rig.open(t)
		q.setCookie(oidcStateCookie, state)
		rig.idp.reset()
		q.wantRefused(q.load(callback), "invalid_grant", false)
		tok := rig.idp.exchanges("/oauth/token")
		if len(tok) != 1 || tok[0].Status != http.StatusBadRequest || !strings.Contains(tok[0].Body, "invalid_grant") {
			t.Errorf("the provider answered the replayed code %v; want 400 invalid_grant", tok)
		}
	})

	t.Run("ExpiredIDToken", func(t *testing.T) {
		p := rig.open(t)
		rig.idp.set(nil, nil, -time.Minute)
		p.startOIDC(false)
		p.wantRefused(p.finishOIDC(), "token is expired", false)
		if tok := rig.idp.exchanges("/oauth/token"); len(tok) != 1 || tok[0].Status != http.StatusOK {
			t.Errorf("the provider should have issued the (expired) ID token: %v", tok)
		}
	})

	t.Run("NonceMismatch", func(t *testing.T) {
		// The nonce is swapped on the way to the provider: its ID token is genuine, signed and
		// current, but was issued for another sign-in.
		p := rig.open(t)
		rig.idp.set(func(q url.Values) { q.Set("nonce", "the-nonce-of-another-sign-in") }, nil, 0)
		p.startOIDC(false)
		p.wantRefused(p.finishOIDC(), "nonce mismatch", false)
	})

	t.Run("ProviderError", func(t *testing.T) {
		// prompt=none with no one signed in at the provider: the provider sends the browser
		// straight back with error=login_required, and the app shows its login page.
		p := rig.open(t)
		rig.idp.set(func(q url.Values) { q.Set("prompt", "none") }, nil, 0)
		p.navigate("/login")
		ctx, cancel := context.WithTimeout(p.ctx, 30*time.Second)
		defer cancel()
		res, err := chromedp.RunResponse(ctx, chromedp.Click(chromedp.CSS(testid("login-oidc")), chromedp.NodeVisible))
		if err != nil {
			t.Fatalf("follow the OIDC sign-in link: %v", err)
		}
		p.wantRefused(res, "provider error: login_required", false)
		if loc := rig.idp.callbackURL(t); !strings.Contains(loc, "error=login_required") {
			t.Errorf("the provider sent the browser back to %s, want error=login_required", loc)
		}
		if tok := rig.idp.exchanges("/oauth/token"); len(tok) != 0 {
			t.Errorf("the app went to the token endpoint after the provider's error: %v", tok)
		}
	})

	t.Run("Logout", func(t *testing.T) {
		p := rig.open(t)
		p.startOIDC(false)
		p.wantSignedIn(p.finishOIDC())
		session := p.cookie(sessionCookie)
		if session == "" {
			t.Fatal("no session cookie after signing in")
		}
		issued := rig.idp.issuedTokens(t)
		// A copy of the cookie in another browser is the same session, until the sign-out.
		q := &oidcPage{page: rig.b.open(t, rig.srv.URL, idpUser+"-copy", desktop, rig.shots), rig: rig}
		q.setCookie(sessionCookie, session)
		q.navigate("/inbox")
		q.waitVisible(testid("user-name"))

		// The sign-out form's answer leads to the provider's end-session endpoint (the CSP's
		// form-action names it), which sends the browser back to the login page with the state.
		p.submit("sign out", testid("sign-out"))
		p.waitVisible(testid("login-page"))
		p.shot("signed-out")
		p.checkNoErrors()
		if p.cookie(sessionCookie) != "" {
			t.Error("the session cookie outlived the sign-out")
		}
		if flash := eval[string](p.page, `document.querySelector('[data-testid="flash"]')?.textContent ?? ""`); !strings.Contains(flash, "signed out") {
			t.Errorf("flash %q after coming back from the provider, want the signed-out message", flash)
		}
		q.navigate("/inbox")
		q.wantSignedOut()

		rev := rig.idp.exchanges("/revoke")
		if len(rev) != 1 || rev[0].Method != http.MethodPost || rev[0].Status != http.StatusOK || rev[0].Form.Get("token") != issued.RefreshToken ||
			rev[0].Form.Get("token_type_hint") != "refresh_token" || rev[0].BasicUser != idpClientID {
			t.Errorf("revocations at the provider %+v; want one 200 for the session's refresh token, the client in HTTP Basic", rev)
		}
		end := rig.idp.exchanges("/end_session")
		if len(end) != 1 {
			t.Fatalf("%d end-session requests reached the provider, want 1", len(end))
		}
		eq := end[0].Query
		if eq.Get("id_token_hint") != issued.IDToken || eq.Get("post_logout_redirect_uri") != base+"/login" || eq.Get("state") == "" {
			t.Errorf("end-session request %v: want the sign-in's ID token as the hint, the login page and a state", eq)
		}
		if want := base + "/login?state=" + url.QueryEscape(eq.Get("state")); end[0].Status != http.StatusFound || end[0].Location != want {
			t.Errorf("the provider answered the end-session request %d → %q, want 302 → %q", end[0].Status, end[0].Location, want)
		}
		if loc := eval[string](p.page, `location.href`); loc != base+"/login?state="+url.QueryEscape(eq.Get("state")) {
			t.Errorf("the browser ended on %s, want the login page with the state", loc)
		}
		if status := rig.idp.redeemRefreshToken(t, issued.RefreshToken); status != http.StatusBadRequest {
			t.Errorf("the provider answered the signed-out session's refresh token %d, want 400", status)
		}
	})
}

// idpTokens are the tokens of the provider's last token answer.
type idpTokens struct {
	IDToken      string `json:"id_token"`
	RefreshToken string `json:"refresh_token"`
}

// issuedTokens are the tokens the provider issued in its last token answer.
func (p *idp) issuedTokens(t *testing.T) idpTokens {
	t.Helper()
	tok := p.exchanges("/oauth/token")
	var out idpTokens
	if len(tok) == 0 || json.Unmarshal([]byte(tok[len(tok)-1].Body), &out) != nil || out.IDToken == "" || out.RefreshToken == "" {
		t.Fatalf("no token answer with an ID and a refresh token: %+v", tok)
	}
	return out
}

// redeemRefreshToken asks the provider's token endpoint for tokens with refreshToken, as the
// app's client, and returns the answer's status.
func (p *idp) redeemRefreshToken(t *testing.T, refreshToken string) int {
	t.Helper()
	form := url.Values{"grant_type": {"refresh_token"}, "refresh_token": {refreshToken}}
	req, _ := http.NewRequest(http.MethodPost, p.URL+"/oauth/token", strings.NewReader(form.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.SetBasicAuth(idpClientID, idpClientSecret)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	return res.StatusCode
}

// oidcRig is the running app, its provider and the browser.
type oidcRig struct {
	srv   *server
	idp   *idp
	b     *browser
	shots *shotLog
}

// open starts a case: the provider forgets the last case, and a new browser context (no
// cookies) opens.
func (r *oidcRig) open(t *testing.T) *oidcPage {
	t.Helper()
	r.idp.reset()
	return &oidcPage{page: r.b.open(t, r.srv.URL, idpUser, desktop, r.shots), rig: r}
}

// oidcPage is a tab of the OIDC tests.
type oidcPage struct {
	*page
	rig *oidcRig
}

// set arranges the tampering and ID token lifetime of the case.
func (p *idp) set(authorize, callback func(url.Values), lifetime time.Duration) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.tamperAuthorize, p.tamperCallback, p.idTokenLifetime = authorize, callback, lifetime
}

// callbackURL is where the provider last sent the browser back to the app.
func (p *idp) callbackURL(t *testing.T) string {
	t.Helper()
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, e := range slices.Backward(p.seen) {
		if strings.Contains(e.Location, "/login/oidc/callback?") {
			return e.Location
		}
	}
	t.Fatal("the provider sent no one back to the app's callback")
	return ""
}

// The app's cookies in dev mode (websession.OIDCCookie and SessionCookie, without the __Host-
// prefix over plain HTTP).
const (
	oidcStateCookie = "ut_oidc"
	sessionCookie   = "ut_session"
)

// startOIDC follows the login page's OIDC link to the provider's login page.
func (p *oidcPage) startOIDC(shoot bool) {
	p.t.Helper()
	p.navigate("/login")
	p.submit("follow the OIDC sign-in link", testid("login-oidc"))
	p.waitVisible("#username")
	if loc := eval[string](p.page, `location.href`); !strings.HasPrefix(loc, p.rig.idp.URL+"/") {
		p.t.Fatalf("the OIDC link led to %s, not to the provider %s", loc, p.rig.idp.URL)
	}
	if shoot {
		p.shot("provider-login")
	}
}

// finishOIDC fills in the provider's login page and returns the answer the browser ends on,
// back at the app.
func (p *oidcPage) finishOIDC() *network.Response {
	p.t.Helper()
	p.typeInto("#username", idpUser)
	p.typeInto("#password", idpPassword)
	ctx, cancel := context.WithTimeout(p.ctx, 30*time.Second)
	defer cancel()
	res, err := chromedp.RunResponse(ctx, chromedp.Click(chromedp.CSS("#idp-submit"), chromedp.NodeVisible))
	if err != nil {
		p.t.Fatalf("sign in at the provider: %v", err)
	}
	return res
}

// load navigates to an absolute URL and returns the answer.
func (p *oidcPage) load(u string) *network.Response {
	p.t.Helper()
	ctx, cancel := context.WithTimeout(p.ctx, 30*time.Second)
	defer cancel()
	res, err := chromedp.RunResponse(ctx, chromedp.Navigate(u))
	if err != nil {
		p.t.Fatalf("load %s: %v", u, err)
	}
	return res
}

// wantSignedIn checks that the browser landed on the inbox, signed in as the provider's user
// under the name the provider gave.
func (p *oidcPage) wantSignedIn(res *network.Response) {
	p.t.Helper()
	if res.Status != http.StatusOK || !strings.HasPrefix(res.URL, p.base+"/inbox") {
		p.t.Fatalf("after the provider: %d at %s, want 200 at the inbox", res.Status, res.URL)
	}
	p.waitVisible(testid("user-name"))
	if name := eval[string](p.page, `document.querySelector('[data-testid="user-name"]').textContent.trim()`); name != "Ben Brooks" {
		p.t.Errorf("signed in as %q, want the provider's name Ben Brooks", name)
	}
	if p.cookie(oidcStateCookie) != "" {
		p.t.Error("the sign-in state cookie outlived the callback")
	}
	p.checkNoErrors()
}

// wantRefused checks a refused sign-in: the login page with its error, answered 401 at the
// callback, the reason in the server's log, and no session. The refusal is photographed and,
// with scan, checked with axe-core.
func (p *oidcPage) wantRefused(res *network.Response, reason string, scan bool) {
	p.t.Helper()
	if !strings.HasPrefix(res.URL, p.base+"/login/oidc/callback") {
		p.t.Fatalf("after the provider: %d at %s, want the app's callback", res.Status, res.URL)
	}
	p.wantRefusal(res, reason)
	p.shot("refused")
	if scan {
		p.axe("oidc-refused")
	}
	if p.cookie(sessionCookie) != "" {
		p.t.Error("a refused sign-in set a session cookie")
	}
	p.load(p.base + "/inbox")
	p.wantSignedOut()
}

// wantRefusal checks the answer to a refused callback: 401, the login page with its error,
// and the reason in the server's log.
func (p *oidcPage) wantRefusal(res *network.Response, reason string) {
	p.t.Helper()
	if res.Status != http.StatusUnauthorized || res.MimeType != "text/html" {
		p.t.Errorf("refused sign-in answered %d %s, want 401 with an HTML page", res.Status, res.MimeType)
	}
	p.waitVisible(testid("login-error"))
	// The log line may trail the answer by a moment.
	deadline := time.Now().Add(5 * time.Second)
	for {
		line := lastLine(p.rig.srv.logs.String(), "oidc sign-in refused")
		if strings.Contains(line, reason) {
			return
		}
		if time.Now().After(deadline) {
			p.t.Fatalf("the server's last refusal is %q, want the reason %q", line, reason)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// wantSignedOut checks that the page is the login page, not signed in.
func (p *oidcPage) wantSignedOut() {
	p.t.Helper()
	p.waitVisible(testid("login-page"))
	if eval[bool](p.page, `!!document.querySelector('[data-testid="user-name"]')`) {
		p.t.Error("signed in after all")
	}
}

// lastLine is the last line of s that contains marker.
func lastLine(s, marker string) string {
	lines := strings.Split(s, "\n")
	for _, l := range slices.Backward(lines) {
		if strings.Contains(l, marker) {
			return l
		}
	}
	return ""
}

// cookie is the value of the app's cookie name in p's browser context ("" when none).
func (p *oidcPage) cookie(name string) string {
	p.t.Helper()
	res, err := chromedp.Call(p.ctx, network.GetCookies, network.GetCookiesParams{URLs: []string{p.base + "/"}})
	if err != nil {
		p.t.Fatalf("read cookies: %v", err)
	}
	for _, c := range res.Cookies {
		if c.Name == name {
			return c.Value
		}
	}
	return ""
}

// setCookie gives p's browser context the app's cookie, as a copied cookie would be.
func (p *oidcPage) setCookie(name, value string) {
	p.t.Helper()
	httpOnly := true
	if _, err := chromedp.Call(p.ctx, network.SetCookie, network.SetCookieParams{
		Name: name, Value: value, URL: p.base + "/", Path: "/", HTTPOnly: &httpOnly, SameSite: network.CookieSameSiteLax,
	}); err != nil {
		p.t.Fatalf("set cookie %s: %v", name, err)
	}
}
