package handlers_test

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"

	"golang.org/x/net/html"

	"usertasks/handlers"
	"usertasks/invitations"
	"usertasks/models"
	"usertasks/store"
	"usertasks/tasks"
	"usertasks/testfactory"
	"usertasks/websession"
)

// webFixture is a running web server on a real SQLite file store (the attack fixture's: any
// provider's) with the lifecycle service.
type webFixture struct {
	store    store.Store
	svc      *tasks.Service
	srv      *httptest.Server
	sessions *websession.Manager
	now      time.Time
}

// webSchema has one field of every widget.
const webSchema = `{"type":"object","required":["decision","amount"],"properties":{
 "decision":{"type":"string","enum":["approve","reject"],"x-ui":{"label":"Decision","widget":"radio","order":1}},
 "amount":{"type":"number","minimum":0,"x-ui":{"label":"Amount","order":2,"help":"In euros"}},
 "count":{"type":"integer","minimum":1,"maximum":9,"x-ui":{"label":"Count","order":3}},
 "comment":{"type":"string","maxLength":200,"x-ui":{"label":"Comment","widget":"textarea","order":4}},
 "title":{"type":"string","x-ui":{"label":"Short title","order":5}},
 "paidOn":{"type":"string","format":"date","x-ui":{"label":"Paid on","order":6}},
 "remindAt":{"type":"string","format":"date-time","x-ui":{"label":"Remind at","order":7}},
 "currency":{"type":"string","enum":["EUR","USD"],"x-ui":{"label":"Currency","order":8}},
 "urgent":{"type":"boolean","x-ui":{"label":"Urgent","order":9}},
 "contact":{"type":"string","format":"email","x-ui":{"label":"Contact","order":10}},
 "link":{"type":"string","format":"uri","x-ui":{"label":"Link","order":11}},
 "iban":{"type":"string","x-ui":{"label":"IBAN","masked":true,"order":12}}}}`

var webDevUsers = []handlers.DevUser{
	{ID: "ann", DisplayName: "Ann Approver", Tenant: "t1", Groups: []string{"finance"}, Permissions: []string{"user-tasks:*"}},
	{ID: "bob", DisplayName: "Bob Builder", Tenant: "t1", Permissions: []string{"user-tasks:*"}},
	{ID: "boss", DisplayName: "Bea Boss", Tenant: "t1", Manager: true, Permissions: []string{"user-tasks:*"}},
	{ID: "eve", DisplayName: "Eve Excluded", Tenant: "t1", Groups: []string{"finance"}, Permissions: []string{"user-tasks:*"}},
	{ID: "otto", DisplayName: "Otto Other", Tenant: "t2", Groups: []string{"finance"}, Permissions: []string{"user-tasks:*"}},
}

func newWebFixture(t *testing.T) *webFixture {
	t.Helper()
	return newWebFixtureWith(t, nil)
}

// newWebFixtureWith lets a test put a wrapper between the pages and the service.
func newWebFixtureWith(t *testing.T, wrap func(handlers.TaskService) handlers.TaskService) *webFixture {
	t.Helper()
	return newWebFixtureService(t, tasks.Options{}, wrap)
}

// newWebFixtureService also sets the service's options (a resolver, say).
func newWebFixtureService(t *testing.T, opts tasks.Options, wrap func(handlers.TaskService) handlers.TaskService) *webFixture {
	t.Helper()
	store := testfactory.OpenStore(t, testfactory.SQLite, nil)
	f := &webFixture{store: store, svc: tasks.New(store, opts), now: time.Now()}
	var err error
	f.sessions, err = websession.New(websession.Config{Store: store, Secrets: [][]byte{[]byte(strings.Repeat("s", 32))}})
	if err != nil {
		t.Fatal(err)
	}
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	var svc handlers.TaskService = f.svc
	if wrap != nil {
		svc = wrap(svc)
	}
	e := handlers.New(handlers.Deps{Store: store, Logger: log, Notifications: store, DeadlinePolicies: tasks.NewDeadlinePolicies(store),
		Web: &handlers.WebDeps{Tasks: svc, Sessions: f.sessions, DevUsers: webDevUsers, Logger: log, Dashboard: tasks.NewDashboard(store, 0), Inbox: tasks.NewInbox(store),
			Invitations: invitations.NewIssuer(store, invitations.IssuerOptions{Dispatcher: "dev-mailbox"})}})
	f.srv = httptest.NewServer(e)
	t.Cleanup(f.srv.Close)
	return f
}

// webTaskOpts tune a seeded task.
type webTaskOpts struct {
	title     string
	assignee  string
	candidate string // a candidate user; default: group finance
	due       *time.Time
	priority  *int
	noForm    bool
	mutate    func(p *models.Projection)
}

// seed projects a task in tenant t1 through the real projection path: candidates ann (via the
// group finance), eve excluded.
func (f *webFixture) seed(t *testing.T, o webTaskOpts) models.Task {
	t.Helper()
	to := &testfactory.TaskOpts{
		Title: webFirstOr(o.title, "Approve invoice"), Summary: "Supplier ACME, 1,200 EUR", Reference: "INV-42", TaskType: "Approval",
		Tags: []string{"finance", "q1"}, Priority: o.priority, DueAt: o.due, Groups: []string{"finance"}, Excluded: []string{"eve"},
		Instructions: "Check the **IBAN** against the [supplier list](https://example.com/suppliers).\n\n- compare amounts\n- check dates\n\n<script>alert(1)</script>",
		Data:         `{"iban":"DE89370400440532013000","decision":"approve","amount":1200,"currency":"EUR"}`,
		Form:         json.RawMessage(webSchema), CancellationEnabled: true,
		Actions:  []models.Action{{Key: "approve", Label: "Approve"}, {Key: "reject", Label: "Reject"}},
		Assignee: o.assignee,
	}
	if o.candidate != "" {
		to.Groups, to.Candidates = nil, []string{o.candidate}
	}
	if o.noForm {
		to.Form, to.Data = nil, ""
	}
	to.Projection = func(p *models.Projection) {
		p.Workflow.DefinitionID, p.Workflow.DefinitionName, p.Workflow.DefinitionVersion = "invoice-approval", "Invoice approval", nil
		p.Workflow.InstanceReference, p.Workflow.ActivityInstanceID = "INV-2026-001", "approve"
		if p.Assignee != nil {
			p.Assignee.DisplayName = o.assignee
		}
		if o.mutate != nil {
			o.mutate(p)
		}
	}
	return testfactory.Task(context.Background(), t, f.store, to)
}

func (f *webFixture) current(t *testing.T, id string) models.Task {
	t.Helper()
	task, err := f.store.Get(context.Background(), "t1", id)
	if err != nil {
		t.Fatal(err)
	}
	return task
}

func webFirstOr(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

// webBrowser is a client with a cookie jar that does not follow redirects.
type webBrowser struct {
	t      *testing.T
	f      *webFixture
	client *http.Client
	lang   string
	header http.Header
}

func (f *webFixture) browser(t *testing.T) *webBrowser {
	t.Helper()
	jar, _ := cookiejar.New(nil)
	return &webBrowser{t: t, f: f, client: &http.Client{Jar: jar, CheckRedirect: func(*http.Request, []*http.Request) error {
		return http.ErrUseLastResponse
	}}}
}

// signIn signs in through the dev login and returns the browser.
func (f *webFixture) signIn(t *testing.T, userID string) *webBrowser {
	t.Helper()
	b := f.browser(t)
	b.signIn(userID)
	return b
}

func (b *webBrowser) signIn(userID string) {
	b.t.Helper()
	login := b.get("/login")
	var key string
	for _, u := range webDevUsers {
		if u.ID == userID {
			key = u.Tenant + "/" + u.ID
		}
	}
	res := b.post("/login/dev", url.Values{"user": {key}, "csrf_token": {login.csrf()}})
	if res.status != http.StatusSeeOther || res.location != "/inbox" {
		b.t.Fatalf("dev login as %s: %d → %q", userID, res.status, res.location)
	}
}

// webPage is a fetched response with its parsed document.
type webPage struct {
	t        *testing.T
	status   int
	header   http.Header
	body     string
	doc      *html.Node
	location string
	cookies  []*http.Cookie
}

func (b *webBrowser) do(req *http.Request) *webPage {
	b.t.Helper()
	if b.lang != "" {
		req.Header.Set("Accept-Language", b.lang)
	}
	for k, vs := range b.header {
		req.Header[k] = vs
	}
	res, err := b.client.Do(req)
	if err != nil {
		b.t.Fatal(err)
	}
	defer res.Body.Close()
	raw, _ := io.ReadAll(res.Body)
	p := &webPage{t: b.t, status: res.StatusCode, header: res.Header, body: string(raw), location: res.Header.Get("Location"), cookies: res.Cookies()}
	if strings.HasPrefix(res.Header.Get("Content-Type"), "text/html") {
		doc, err := html.Parse(strings.NewReader(p.body))
		if err != nil {
			b.t.Fatal(err)
		}
		p.doc = doc
	}
	return p
}

func (b *webBrowser) get(path string) *webPage {
	b.t.Helper()
	req, _ := http.NewRequest(http.MethodGet, b.f.srv.URL+path, nil)
	return b.do(req)
}

func (b *webBrowser) post(path string, form url.Values) *webPage {
	b.t.Helper()
	req, _ := http.NewRequest(http.MethodPost, b.f.srv.URL+path, strings.NewReader(form.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	return b.do(req)
}

// follow GETs a redirect's target.
func (b *webBrowser) follow(p *webPage) *webPage {
	b.t.Helper()
	if p.status != http.StatusSeeOther && p.status != http.StatusFound {
		b.t.Fatalf("status %d, want a redirect; body:\n%s", p.status, p.body)
	}
	return b.get(p.location)
}

// submit posts a form of the webPage (by data-testid) as a webBrowser would: every named input with
// its value, overridden by set, plus the pressed button's name and value.
func (b *webBrowser) submit(p *webPage, formTestID string, set url.Values, button *html.Node) *webPage {
	b.t.Helper()
	form := p.one(formTestID)
	values := webFormValues(form)
	for k, vs := range set {
		values[k] = vs
	}
	if button != nil && webAttr(button, "name") != "" {
		values.Set(webAttr(button, "name"), webAttr(button, "value"))
	}
	action := webAttr(form, "action")
	if button != nil && webAttr(button, "formaction") != "" {
		action = webAttr(button, "formaction")
	}
	return b.post(action, values)
}

// webFormValues collects what a form would submit without changes.
func webFormValues(form *html.Node) url.Values {
	v := url.Values{}
	webWalk(form, func(n *html.Node) {
		name := webAttr(n, "name")
		if n.Type != html.ElementNode || name == "" {
			return
		}
		switch n.Data {
		case "input":
			switch webAttr(n, "type") {
			case "submit", "button":
			case "checkbox", "radio":
				if webHasAttr(n, "checked") {
					v.Add(name, webFirstOr(webAttr(n, "value"), "on"))
				}
			default:
				v.Add(name, webAttr(n, "value"))
			}
		case "textarea":
			v.Add(name, webText(n))
		case "select":
			selected := ""
			webWalk(n, func(o *html.Node) {
				if o.Type == html.ElementNode && o.Data == "option" && webHasAttr(o, "selected") {
					selected = webAttr(o, "value")
				}
			})
			v.Add(name, selected)
		}
	})
	return v
}

func (p *webPage) all(testID string) []*html.Node {
	var out []*html.Node
	if p.doc == nil {
		return nil
	}
	webWalk(p.doc, func(n *html.Node) {
		if n.Type == html.ElementNode && webAttr(n, "data-testid") == testID {
			out = append(out, n)
		}
	})
	return out
}

func (p *webPage) has(testID string) bool { return len(p.all(testID)) > 0 }

func (p *webPage) one(testID string) *html.Node {
	p.t.Helper()
	nodes := p.all(testID)
	if len(nodes) != 1 {
		p.t.Fatalf("found %d elements with data-testid=%q, want 1 (status %d); body:\n%s", len(nodes), testID, p.status, p.body)
	}
	return nodes[0]
}

// webText of the one element with the test id, whitespace collapsed.
func (p *webPage) text(testID string) string {
	p.t.Helper()
	return webText(p.one(testID))
}

// csrf returns the page's CSRF token.
func (p *webPage) csrf() string {
	p.t.Helper()
	var token string
	webWalk(p.doc, func(n *html.Node) {
		if n.Type == html.ElementNode && n.Data == "meta" && webAttr(n, "name") == "csrf-token" {
			token = webAttr(n, "content")
		}
	})
	if token == "" {
		p.t.Fatalf("no csrf-token meta; body:\n%s", p.body)
	}
	return token
}

func (p *webPage) wantStatus(want int) *webPage {
	p.t.Helper()
	if p.status != want {
		p.t.Fatalf("status %d, want %d; body:\n%s", p.status, want, p.body)
	}
	return p
}

func (p *webPage) lang() string {
	var lang string
	webWalk(p.doc, func(n *html.Node) {
		if n.Type == html.ElementNode && n.Data == "html" {
			lang = webAttr(n, "lang")
		}
	})
	return lang
}

// webWithin returns the descendants of n with a test id.
func webWithin(n *html.Node, testID string) []*html.Node {
	var out []*html.Node
	webWalk(n, func(c *html.Node) {
		if c.Type == html.ElementNode && webAttr(c, "data-testid") == testID {
			out = append(out, c)
		}
	})
	return out
}

// webByID finds an element by id below n.
func webByID(n *html.Node, id string) *html.Node {
	var out *html.Node
	webWalk(n, func(c *html.Node) {
		if out == nil && c.Type == html.ElementNode && webAttr(c, "id") == id {
			out = c
		}
	})
	return out
}

func webWalk(n *html.Node, fn func(*html.Node)) {
	fn(n)
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		webWalk(c, fn)
	}
}

func webAttr(n *html.Node, name string) string {
	for _, a := range n.Attr {
		if a.Key == name {
			return a.Val
		}
	}
	return ""
}

func webHasAttr(n *html.Node, name string) bool {
	for _, a := range n.Attr {
		if a.Key == name {
			return true
		}
	}
	return false
}

// webText is the visible webText of n (script and style skipped), whitespace collapsed.
func webText(n *html.Node) string {
	var sb strings.Builder
	webWalk(n, func(c *html.Node) {
		if c.Type == html.TextNode && (c.Parent == nil || (c.Parent.Data != "script" && c.Parent.Data != "style")) {
			sb.WriteString(c.Data)
			sb.WriteString(" ")
		}
	})
	return strings.Join(strings.Fields(sb.String()), " ")
}

func webWantContains(t *testing.T, what, got, want string) {
	t.Helper()
	if !strings.Contains(got, want) {
		t.Fatalf("%s = %q, want it to contain %q", what, got, want)
	}
}

func webPtr[T any](v T) *T { return &v }

// newBareWeb is the router with the pages and no store, on a service without one: enough for
// the sign-in pages, which never call it.
func newBareWeb(t *testing.T, s *websession.Manager) http.Handler {
	t.Helper()
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	return handlers.New(handlers.Deps{Logger: log,
		Web: &handlers.WebDeps{Tasks: tasks.New(nil, tasks.Options{}), Sessions: s, DevUsers: webDevUsers, Logger: log}})
}

// metaCSRF reads the csrf-token meta of a page body.
func metaCSRF(t *testing.T, body string) string {
	t.Helper()
	doc, err := html.Parse(strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	p := &webPage{t: t, doc: doc, body: body}
	return p.csrf()
}

// events returns every event of a task in tenant t1.
func (f *webFixture) events(t *testing.T, id string) []models.Event {
	t.Helper()
	evs, err := f.store.Events(context.Background(), "t1", id, 0, models.MaxPageSize)
	if err != nil {
		t.Fatal(err)
	}
	return evs
}
