package websession_test

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"usertasks/models"
	"usertasks/testfactory"
	"usertasks/websession"
	"usertasks/websession/websessiontest"
)

var ann = models.Actor{Tenant: "t1", Subject: models.ParticipantRef{Provider: models.DefaultProvider, ID: "ann"},
	DisplayName: "Ann", Permissions: []string{"user-tasks:*"}}

// signIn starts a session and returns a request carrying its cookie.
func signIn(t *testing.T, m *websession.Manager, a models.Actor, via string) *http.Request {
	t.Helper()
	return startSession(t, m, a, via, models.WebTokens{})
}

// startSession starts a session holding tokens and returns a request carrying its cookie.
func startSession(t *testing.T, m *websession.Manager, a models.Actor, via string, tokens models.WebTokens) *http.Request {
	t.Helper()
	rec := httptest.NewRecorder()
	if _, err := m.Start(rec, httptest.NewRequest(http.MethodPost, "/login/dev", nil), a, via, tokens); err != nil {
		t.Fatal(err)
	}
	req := httptest.NewRequest(http.MethodGet, "/inbox", nil)
	for _, c := range rec.Result().Cookies() {
		req.AddCookie(c)
	}
	return req
}

func TestNewRefusesBadConfig(t *testing.T) {
	store := testfactory.OpenStore(t, testfactory.SQLite, nil)
	good := [][]byte{websession.GenerateSecret()}
	for name, cfg := range map[string]websession.Config{
		"NoStore":       {Secrets: good},
		"NoSecret":      {Store: store},
		"ShortSecret":   {Store: store, Secrets: [][]byte{[]byte("short")}},
		"ShortIdle":     {Store: store, Secrets: good, IdleTimeout: time.Minute},
		"BaseURLNoHTTP": {Store: store, Secrets: good, BaseURL: "ftp://tasks.example.com"},
	} {
		if _, err := websession.New(cfg); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
}

func TestParseSecrets(t *testing.T) {
	long := strings.Repeat("a", 32)
	got, err := websession.ParseSecrets(" " + long + " , " + strings.Repeat("b", 40) + ",")
	if err != nil || len(got) != 2 || string(got[0]) != long {
		t.Fatalf("%q, %v", got, err)
	}
	for _, bad := range []string{"", " , ", "short", long + ",short"} {
		if _, err := websession.ParseSecrets(bad); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
}

// TestSealedCookiesSurviveRotation: a secret rotated to second place still opens what it
// sealed; a foreign secret opens nothing.
func TestSealedCookiesSurviveRotation(t *testing.T) {
	store := testfactory.OpenStore(t, testfactory.SQLite, nil)
	old := websession.GenerateSecret()
	before := websessiontest.NewManager(t, websession.Config{Store: store, Secrets: [][]byte{old}})
	sealed, err := before.Seal(websession.FlashCookie, map[string]string{"k": "claimed"})
	if err != nil {
		t.Fatal(err)
	}
	req := httptest.NewRequest(http.MethodGet, "/", nil)
	req.AddCookie(&http.Cookie{Name: before.CookieName(websession.FlashCookie), Value: sealed})

	var got map[string]string
	rotated := websessiontest.NewManager(t, websession.Config{Store: store, Secrets: [][]byte{websession.GenerateSecret(), old}})
	if !rotated.Open(req, websession.FlashCookie, &got) || got["k"] != "claimed" {
		t.Fatalf("a rotated-out secret no longer opens its cookie: %v", got)
	}
	other := websessiontest.NewManager(t, websession.Config{Store: store})
	if other.Open(req, websession.FlashCookie, &got) {
		t.Fatal("a foreign secret opened the cookie")
	}
	if rotated.Open(req, websession.OIDCCookie, &got) {
		t.Fatal("a cookie opened under another name")
	}
}

func TestSameOrigin(t *testing.T) {
	prod := websessiontest.NewManager(t, websession.Config{BaseURL: "https://Tasks.Example.com:443/app/"})
	dev := websessiontest.NewManager(t, websession.Config{BaseURL: "http://127.0.0.1:8080", Insecure: true})
	unset := websessiontest.NewManager(t, websession.Config{})
	type header = map[string]string
	for _, tc := range []struct {
		name string
		m    *websession.Manager
		host string
		h    header
		want bool
	}{
		{"NoHeaders", prod, "tasks.example.com", header{}, true},
		{"OurOrigin", prod, "tasks.example.com", header{"Origin": "https://tasks.example.com"}, true},
		{"OurOriginSameOriginFetch", prod, "tasks.example.com", header{"Origin": "https://tasks.example.com", "Sec-Fetch-Site": "same-origin"}, true},
		{"UserTyped", prod, "tasks.example.com", header{"Sec-Fetch-Site": "none"}, true},
		{"CrossSite", prod, "tasks.example.com", header{"Sec-Fetch-Site": "cross-site"}, false},
		{"SameSiteSibling", prod, "tasks.example.com", header{"Sec-Fetch-Site": "same-site"}, false},
		{"UnknownFetchSite", prod, "tasks.example.com", header{"Sec-Fetch-Site": "sideways"}, false},
		{"ForeignOrigin", prod, "tasks.example.com", header{"Origin": "https://evil.example"}, false},
		{"SiblingOrigin", prod, "tasks.example.com", header{"Origin": "https://evil.example.com"}, false},
		{"SuffixOrigin", prod, "tasks.example.com", header{"Origin": "https://tasks.example.com.evil.example"}, false},
		{"PlainHTTP", prod, "tasks.example.com", header{"Origin": "http://tasks.example.com"}, false},
		{"OtherPort", prod, "tasks.example.com", header{"Origin": "https://tasks.example.com:8443"}, false},
		{"NullOrigin", prod, "tasks.example.com", header{"Origin": "null"}, false},
		{"EmptyOrigin", prod, "tasks.example.com", header{"Origin": ""}, false},
		{"OriginWithPath", prod, "tasks.example.com", header{"Origin": "https://tasks.example.com/x"}, false},
		{"OriginWithUser", prod, "tasks.example.com", header{"Origin": "https://a@tasks.example.com"}, false},
		{"HostIsNotTrustedOutsideDev", prod, "evil.example", header{"Origin": "http://evil.example"}, false},
		{"DevBaseURL", dev, "127.0.0.1:8080", header{"Origin": "http://127.0.0.1:8080"}, true},
		{"DevRequestHost", dev, "localhost:8080", header{"Origin": "http://localhost:8080"}, true},
		{"DevForeign", dev, "localhost:8080", header{"Origin": "http://evil.example"}, false},
		{"NoBaseURLRequestHost", unset, "tasks.example.com", header{"Origin": "http://tasks.example.com"}, true},
		{"NoBaseURLForeign", unset, "tasks.example.com", header{"Origin": "http://evil.example"}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := httptest.NewRequest(http.MethodPost, "/tasks/x/claim", nil)
			r.Host = tc.host
			for k, v := range tc.h {
				r.Header.Set(k, v)
			}
			if got := tc.m.SameOrigin(r); got != tc.want {
				t.Fatalf("SameOrigin = %v, want %v", got, tc.want)
			}
		})
	}
	t.Run("TwoOrigins", func(t *testing.T) {
		r := httptest.NewRequest(http.MethodPost, "/", nil)
		r.Header.Add("Origin", "https://tasks.example.com")
		r.Header.Add("Origin", "https://evil.example")
		if prod.SameOrigin(r) {
			t.Fatal("two Origin headers accepted")
		}
	})
}

// TestCSRFBindings: a session's token works only for that session; the anonymous binding's
// token works only on the sign-in forms.
func TestCSRFBindings(t *testing.T) {
	m := websessiontest.NewManager(t, websession.Config{})
	req := signIn(t, m, ann, models.WebViaDev)
	s, err := m.Read(req)
	if err != nil {
		t.Fatal(err)
	}
	other, err := m.Read(signIn(t, m, ann, models.WebViaDev))
	if err != nil {
		t.Fatal(err)
	}
	token := m.CSRFToken(httptest.NewRecorder(), req, &s)
	post := httptest.NewRequest(http.MethodPost, "/tasks/x/claim", nil)
	if !m.CheckCSRF(post, &s, token, false) {
		t.Fatal("the session's own token refused")
	}
	if m.CheckCSRF(post, &other, token, false) || m.CheckCSRF(post, &other, token, true) {
		t.Fatal("one session's token accepted for another session of the same person")
	}

	anon := httptest.NewRequest(http.MethodGet, "/login", nil)
	rec := httptest.NewRecorder()
	anonToken := m.CSRFToken(rec, anon, nil)
	form := httptest.NewRequest(http.MethodPost, "/login/dev", nil)
	for _, c := range rec.Result().Cookies() {
		form.AddCookie(c)
	}
	if !m.CheckCSRF(form, nil, anonToken, true) {
		t.Fatal("the anonymous token refused on a sign-in form")
	}
	if m.CheckCSRF(form, nil, anonToken, false) || m.CheckCSRF(form, &s, anonToken, false) {
		t.Fatal("the anonymous token accepted for a signed-in action")
	}
	if m.CheckCSRF(form, &s, "", true) || m.CheckCSRF(form, &s, token+"x", false) {
		t.Fatal("a missing or altered token accepted")
	}
}

func TestLoadTimeZone(t *testing.T) {
	for _, ok := range []string{"UTC", "Europe/Berlin", "America/Argentina/ComodRivadavia", "Etc/GMT+5", "America/Port-au-Prince", "Asia/Ho_Chi_Minh"} {
		if loc, got := websession.LoadTimeZone(ok); !got || loc.String() != ok {
			t.Errorf("%q refused", ok)
		}
	}
	for _, bad := range []string{"", "Local", "Mars/Olympus_Mons", "../../etc/passwd", "/etc/localtime", "Europe/../Europe/Berlin",
		"Europe//Berlin", "Europe/Berlin/", "Europe/Berlin\x00", " Europe/Berlin", "Europe\\Berlin", "Europa/Berlín", "europe/berlin?x",
		"Europe%2FBerlin", ".", "Europe/.Berlin", strings.Repeat("A", models.MaxTimeZoneLength+1)} {
		if _, got := websession.LoadTimeZone(bad); got {
			t.Errorf("%q accepted", bad)
		}
	}
	if loc := (websession.Session{}).Location(); loc != time.UTC {
		t.Errorf("no zone: %v, want UTC", loc)
	}
	if loc := (websession.Session{TimeZone: "Asia/Tokyo"}).Location(); loc.String() != "Asia/Tokyo" {
		t.Errorf("Asia/Tokyo: %v", loc)
	}
	if loc := (websession.Session{TimeZone: "Gone/Zone"}).Location(); loc != time.UTC {
		t.Errorf("an unknown stored zone: %v, want UTC", loc)
	}
}

// identities is an IdentitySource the test controls.
type identities struct {
	mu    sync.Mutex
	calls int
	next  func(models.WebSession) (models.WebIdentity, error)
	delay time.Duration
	// tokens are the tokens every refresh returns.
	tokens models.WebTokens
}

func (s *identities) Refresh(_ context.Context, ws models.WebSession) (models.WebIdentity, models.WebTokens, error) {
	time.Sleep(s.delay)
	s.mu.Lock()
	defer s.mu.Unlock()
	s.calls++
	id, err := s.next(ws)
	return id, s.tokens, err
}

func TestRefresh(t *testing.T) {
	clock := &testfactory.Clock{}
	m := websessiontest.NewManager(t, websession.Config{Store: testfactory.OpenStore(t, testfactory.SQLite, &testfactory.StoreOpts{Clock: clock.Now})})
	src := &identities{next: func(ws models.WebSession) (models.WebIdentity, error) {
		id := ws.WebIdentity
		id.Manager = true
		return id, nil
	}}
	m.SetIdentitySource(models.WebViaDev, src)

	t.Run("NotBeforeTheInterval", func(t *testing.T) {
		req := signIn(t, m, ann, models.WebViaDev)
		clock.Advance(4 * time.Minute)
		if s, err := m.Read(req); err != nil || s.Manager || src.calls != 0 {
			t.Fatalf("read %+v, %v after %d refreshes", s, err, src.calls)
		}
	})
	t.Run("OncePerInterval", func(t *testing.T) {
		req := signIn(t, m, ann, models.WebViaDev)
		clock.Advance(websession.DefaultRefreshInterval)
		src.calls, src.delay = 0, 20*time.Millisecond
		defer func() { src.delay = 0 }()
		var wg sync.WaitGroup
		for range 8 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				if s, err := m.Read(req.Clone(context.Background())); err != nil || !s.Manager {
					t.Errorf("read %+v, %v", s, err)
				}
			}()
		}
		wg.Wait()
		if src.calls != 1 {
			t.Fatalf("%d refreshes for 8 concurrent requests, want 1", src.calls)
		}
	})
	for name, next := range map[string]func(models.WebSession) (models.WebIdentity, error){
		"ErrSourceFails": func(models.WebSession) (models.WebIdentity, error) {
			return models.WebIdentity{}, errors.New("provider down")
		},
		"ErrAnotherPerson": func(ws models.WebSession) (models.WebIdentity, error) {
			id := ws.WebIdentity
			id.Subject = "mallory"
			return id, nil
		},
		"ErrAnotherTenant": func(ws models.WebSession) (models.WebIdentity, error) {
			id := ws.WebIdentity
			id.Tenant = "t2"
			return id, nil
		},
	} {
		t.Run(name, func(t *testing.T) {
			req := signIn(t, m, ann, models.WebViaDev)
			saved := src.next
			src.next = next
			defer func() { src.next = saved }()
			clock.Advance(websession.DefaultRefreshInterval)
			if _, err := m.Read(req); !errors.Is(err, models.ErrUnauthorized) {
				t.Fatalf("read after a failed refresh: %v, want unauthenticated", err)
			}
			src.next = saved
			if _, err := m.Read(req); !errors.Is(err, models.ErrUnauthorized) {
				t.Fatalf("the session survived a failed refresh: %v", err)
			}
		})
	}
	t.Run("ErrNoSource", func(t *testing.T) {
		req := signIn(t, m, ann, models.WebViaOIDC)
		clock.Advance(websession.DefaultRefreshInterval)
		if _, err := m.Read(req); !errors.Is(err, models.ErrUnauthorized) {
			t.Fatalf("a session without an identity source outlived its refresh: %v", err)
		}
	})
}
