package handlers_test

import (
	"bytes"
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"slices"
	"strings"
	"testing"

	"go.mongodb.org/mongo-driver/v2/bson"

	"usertasks/handlers/handlerstest"
	"usertasks/migrations"
	"usertasks/models"
	"usertasks/testfactory"
)

// secretScan gathers the secrets a workload handled and what an operator or attacker could
// read afterwards, then looks for each secret in each place.
type secretScan struct {
	t       *testing.T
	f       *attackFixture
	secrets map[string]string // what it is → its value in clear
	// exactOnly are secrets too short to look for inside longer text (a 6-digit code): in the
	// database they count only as a whole column value.
	exactOnly map[string]bool
	// errorBodies are the bodies of every answer with a 4xx or 5xx status, by request.
	errorBodies map[string]string
}

func (s *secretScan) add(what, value string) {
	s.t.Helper()
	if len(value) < 6 {
		s.t.Fatalf("secret %s is too short to look for: %q", what, value)
	}
	s.secrets[what] = value
}

// call sends one request with the Authorization header auth (none when empty) and keeps the
// body of an error answer.
func (s *secretScan) call(method, path, auth string, body any) (int, []byte) {
	s.t.Helper()
	var rd io.Reader
	if body != nil {
		raw, err := json.Marshal(body)
		if err != nil {
			s.t.Fatal(err)
		}
		rd = bytes.NewReader(raw)
	}
	req, err := http.NewRequest(method, s.f.srv.URL+path, rd)
	if err != nil {
		s.t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	if auth != "" {
		req.Header.Set("Authorization", auth)
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		s.t.Fatal(err)
	}
	defer res.Body.Close()
	raw, _ := io.ReadAll(res.Body)
	if res.StatusCode >= 400 {
		s.errorBodies[fmt.Sprintf("%s %s → %d", method, path, res.StatusCode)] = string(raw)
	}
	return res.StatusCode, raw
}

// keepErrorPage keeps a browser answer's body when it is an error, without what the page
// shows its own browser by design (the form token every page of a session carries).
func (s *secretScan) keepErrorPage(what string, p *webPage, own ...string) {
	if p.status >= 400 {
		body := p.body
		for _, v := range own {
			body = strings.ReplaceAll(body, v, "(its own)")
		}
		s.errorBodies[fmt.Sprintf("%s → %d", what, p.status)] = body
	}
}

// find reports every secret found in text, read from where.
func (s *secretScan) find(where, text string) {
	s.t.Helper()
	for what, v := range s.secrets {
		if s.exactOnly[what] {
			if strings.Contains(text, `"`+v+`"`) || strings.Contains(text, "="+v) || strings.Contains(text, "/"+v) {
				s.t.Errorf("the %s is in clear in %s", what, where)
			}
			continue
		}
		if strings.Contains(text, v) {
			s.t.Errorf("the %s is in clear in %s", what, where)
		}
	}
}

// findValue reports every secret found in one database value.
func (s *secretScan) findValue(where string, value []byte) {
	s.t.Helper()
	for what, v := range s.secrets {
		if s.exactOnly[what] {
			if string(value) == v {
				s.t.Errorf("the %s is in clear in %s", what, where)
			}
			continue
		}
		if bytes.Contains(value, []byte(v)) {
			s.t.Errorf("the %s is in clear in %s", what, where)
		}
	}
}

// TestAttackSecretsNeverInClear runs a workload that handles every kind of secret — bearer
// tokens, web session and CSRF cookies and tokens, invitation tokens and codes, guest session
// credentials and cookies, protected task data and completion data, an invitation's
// recipient, the HS256 secret, the session secret, the encryption key, the metrics token —
// with recognisable values, and then reads everything an operator or attacker could read: the
// server's log, every error body, /metrics, and every value of every column of every table
// (events, outbox, deliveries, sessions included) and, on SQLite, the database file and its
// WAL byte by byte. A secret found in clear fails with where. Hashes and ciphertext are fine.
func TestAttackSecretsNeverInClear(t *testing.T) {
	for _, p := range testfactory.Providers {
		t.Run(p.Name(), func(t *testing.T) {
			f := newAttackFixtureOn(t, p)
			s := &secretScan{t: t, f: f, secrets: map[string]string{}, exactOnly: map[string]bool{}, errorBodies: map[string]string{}}
			s.workload()
			s.scanEverything(p)
		})
	}
}

// workload drives the server through the API, the pages and the guest flows.
func (s *secretScan) workload() {
	t, f := s.t, s.f
	s.add("HS256 secret (raw)", string(f.secret))
	s.add("HS256 secret (hex)", hex.EncodeToString(f.secret))
	s.add("HS256 secret (base64)", base64.StdEncoding.EncodeToString(f.secret))
	s.add("HS256 secret (base64url)", base64.RawURLEncoding.EncodeToString(f.secret))
	s.add("session secret", attackSessionSecret)
	_, key, _ := strings.Cut(f.keySpec, ":")
	s.add("encryption key", key)
	s.add("metrics token", f.metricsToken)
	protected := "canary-data-" + rand.Text()
	completion := "canary-completion-" + rand.Text()
	recipient := "canary-" + strings.ToLower(rand.Text()) + "@example.org"
	s.add("protected task data", protected)
	s.add("completion data", completion)
	s.add("invitation recipient", recipient)

	// The JSON API with bearer tokens: read, a refused command, a claim, a completion.
	ann := f.token(t, handlerstest.User{Tenant: "t1", ID: "ann", Groups: []string{"finance"}, Permissions: handlerstest.WorkerPermissions})
	boss := f.token(t, handlerstest.Manager("t1", "boss"))
	s.add("bearer token", ann)
	s.add("manager's bearer token", boss)
	s.add("bearer token's signature", ann[strings.LastIndex(ann, ".")+1:])
	data := fmt.Sprintf(`{"comment": "ok", "iban": %q}`, protected)
	task := testfactory.Task(context.Background(), t, f.store, &testfactory.TaskOpts{Tenant: "t1", Title: "Approve invoice",
		Groups: []string{"finance"}, Form: approvalForm, Data: data, CancellationEnabled: true})
	path := "/api/v1/user-tasks/" + task.ID
	s.call(http.MethodGet, path, "Bearer "+ann, nil)
	s.call(http.MethodGet, path, "Bearer "+madeUp(ann), nil)
	s.call(http.MethodGet, path, "Bearer "+ann+"x", nil)
	s.call(http.MethodGet, "/api/v1/user-tasks/"+url.PathEscape("../"+task.ID+"?#"), "Bearer "+ann, nil)
	s.call(http.MethodPost, path+"/claim", "Bearer "+ann, map[string]any{"expectedRevision": 99})
	if code, raw := s.call(http.MethodPost, path+"/claim", "Bearer "+ann, map[string]any{"expectedRevision": task.Revision}); code != http.StatusOK {
		t.Fatalf("claim: %d %s", code, raw)
	}
	// Comments: one stored (sealed, a mention notifies), one refused, whose error must not
	// echo its text.
	remark := "canary-comment-" + rand.Text()
	s.add("comment text", remark)
	if code, raw := s.call(http.MethodPost, path+"/comments", "Bearer "+ann, map[string]any{"text": "Is this right? " + remark + " @boss"}); code != http.StatusCreated {
		t.Fatalf("comment: %d %s", code, raw)
	}
	s.call(http.MethodPost, path+"/comments", "Bearer "+ann, map[string]any{"text": remark + "\a"})
	complete := map[string]any{"expectedRevision": task.Revision + 1, "operationId": "op-secret", "actionKey": "Complete",
		"data": map[string]any{"approved": true, "comment": completion, "iban": protected}}
	s.call(http.MethodPost, path+"/complete", "Bearer "+ann, map[string]any{"expectedRevision": task.Revision + 1,
		"operationId": "op-bad", "actionKey": "Complete", "data": map[string]any{"approved": completion}})
	if code, raw := s.call(http.MethodPost, path+"/complete", "Bearer "+ann, complete); code != http.StatusAccepted {
		t.Fatalf("complete: %d %s", code, raw)
	}
	complete["data"] = map[string]any{"approved": false, "comment": completion + "-replay"}
	s.call(http.MethodPost, path+"/complete", "Bearer "+ann, complete) // same id, other body: 409

	// A manager issues an invitation to a recipient: the answer carries no token.
	invited := f.task(t, "t1", nil)
	s.call(http.MethodPost, "/api/v1/user-tasks/"+invited.ID+"/invitations", "Bearer "+boss,
		map[string]any{"definitionIndex": 0, "recipients": []string{recipient}})
	s.call(http.MethodPost, "/api/v1/user-tasks/"+invited.ID+"/invitations", "Bearer "+boss,
		map[string]any{"definitionIndex": 0, "recipients": []string{recipient + "\x00", recipient}})

	// The guest API: a wrong code, then the right one, then a completion with the credential.
	viaAPI := f.invitation(t)
	s.add("invitation token", viaAPI.Token)
	s.add("invitation code", viaAPI.Code)
	s.exactOnly["invitation code"] = true
	verify := "/api/v1/user-task-invitations/" + viaAPI.Token
	s.call(http.MethodGet, verify, "", nil)
	wrong := "000000"
	if viaAPI.Code == wrong {
		wrong = "000001"
	}
	s.call(http.MethodPost, verify+"/verify", "", map[string]any{"code": wrong})
	code, raw := s.call(http.MethodPost, verify+"/verify", "", map[string]any{"code": viaAPI.Code})
	var v struct {
		SessionCredential string `json:"sessionCredential"`
	}
	if code != http.StatusOK || json.Unmarshal(raw, &v) != nil || v.SessionCredential == "" {
		t.Fatalf("guest verification over the API: %d %s", code, raw)
	}
	s.add("guest session credential", v.SessionCredential)
	guest := "UserTaskSession " + v.SessionCredential
	s.call(http.MethodGet, "/api/v1/user-task-sessions/current", guest, nil)
	s.call(http.MethodGet, "/api/v1/user-task-sessions/current", "UserTaskSession "+madeUp(v.SessionCredential), nil)
	s.call(http.MethodGet, "/api/v1/user-tasks", "Bearer "+v.SessionCredential, nil)
	guestTask := f.current(t, viaAPI.TaskID)
	if code, raw := s.call(http.MethodPost, "/api/v1/user-task-sessions/current/complete", guest, map[string]any{
		"expectedRevision": guestTask.Revision, "operationId": "op-guest", "actionKey": "Complete",
		"data": map[string]any{"approved": true, "comment": completion}}); code != http.StatusAccepted {
		t.Fatalf("guest completion over the API: %d %s", code, raw)
	}

	// The guest pages: the link, a wrong code, the right code, the task page's form token.
	viaPage := f.invitation(t)
	s.add("second invitation token", viaPage.Token)
	s.add("second invitation code", viaPage.Code)
	s.exactOnly["second invitation code"] = true
	gb := f.browser(t)
	screen := gb.get("/guest?t=" + url.QueryEscape(viaPage.Token))
	verifyForm := url.Values{"t": {viaPage.Token}, "code": {wrong}, "csrf_token": {hiddenCSRF(t, screen)}}
	// The refusal re-renders the verification form for another try: it carries the guest's own
	// link, which that browser just sent.
	s.keepErrorPage("POST /guest/verify (wrong code)", gb.post("/guest/verify", verifyForm), viaPage.Token)
	verifyForm.Set("code", viaPage.Code)
	if res := gb.post("/guest/verify", verifyForm); res.status != http.StatusSeeOther {
		t.Fatalf("guest verification on the page: %d", res.status)
	}
	page := gb.get("/guest/task")
	guestCSRF := hiddenCSRF(t, page)
	s.add("guest page's CSRF token", guestCSRF)
	for _, c := range gb.client.Jar.Cookies(mustURL(t, f.srv.URL)) {
		s.add("guest browser cookie "+c.Name, c.Value)
	}
	s.keepErrorPage("POST /guest/task (forged token)", gb.post("/guest/task", url.Values{"csrf_token": {"forged"}, "action": {"Complete"}}), guestCSRF)

	// The pages: a signed-in manager, a refused form, a session cookie and its CSRF token.
	b := f.signInAs(t, "t1", "boss")
	inbox := b.get("/inbox")
	webCSRF := inbox.csrf()
	s.add("web CSRF token", webCSRF)
	for _, c := range b.client.Jar.Cookies(mustURL(t, f.srv.URL)) {
		s.add("web cookie "+c.Name, c.Value)
	}
	s.keepErrorPage("POST /tasks/:id/claim (no token)", b.post("/tasks/"+invited.ID+"/claim", url.Values{"expectedRevision": {"1"}}), webCSRF)
	s.keepErrorPage("GET /tasks/<unknown>", b.get("/tasks/"+url.PathEscape(models.NewID())), webCSRF)
	s.keepErrorPage("POST /logout (forged token)", b.post("/logout", url.Values{"csrf_token": {webCSRF + "x"}}), webCSRF)
	if res := b.post("/logout", url.Values{"csrf_token": {inbox.csrf()}}); res.status != http.StatusSeeOther {
		t.Fatalf("logout: %d", res.status)
	}
	if len(s.errorBodies) < 10 {
		t.Fatalf("only %d error answers to scan", len(s.errorBodies))
	}
}

// scanEverything looks for every secret in the log, the error bodies, /metrics and the database.
func (s *secretScan) scanEverything(p testfactory.Provider) {
	t, f := s.t, s.f
	s.find("the server's log", f.logs.String())
	for req, body := range s.errorBodies {
		s.find("the error body of "+req, body)
	}
	req, _ := http.NewRequest(http.MethodGet, f.srv.URL+"/metrics", nil)
	req.Header.Set("Authorization", "Bearer "+f.metricsToken)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	metricsBody, _ := io.ReadAll(res.Body)
	res.Body.Close()
	if res.StatusCode != http.StatusOK || !bytes.Contains(metricsBody, []byte("go_goroutines")) {
		t.Fatalf("/metrics: %d", res.StatusCode)
	}
	s.find("/metrics", string(metricsBody))

	var tables []string
	values := 0
	if p == testfactory.Mongo {
		// The document store's equivalent of every column of every table: every field of every
		// document of every collection. FerretDB's own files are docstoretest's, outside the
		// store, so the byte scan of the database file below is SQLite's only.
		t.Log("document store: scanning every document's fields; no database file of its own to scan byte by byte")
		tables, values = s.scanDocuments()
	} else {
		db, err := f.sqlStore(t).DB()
		if err != nil {
			t.Fatal(err)
		}
		tables = s.tables(db, p.Dialect())
		for _, table := range tables {
			values += s.scanTable(db, p.Dialect(), table)
		}
	}
	if len(tables) < 10 || values < 100 {
		t.Fatalf("scanned %d values in %d tables: too few", values, len(tables))
	}
	for _, table := range []string{"user_task_events", "user_task_resumptions", "user_task_invitations", "user_task_deliveries", "user_task_web_sessions", "user_task_guest_sessions", "user_task_operations"} {
		if !slices.Contains(tables, table) {
			t.Errorf("table %s was not scanned (tables: %v)", table, tables)
		}
	}
	if p != testfactory.SQLite {
		return
	}
	file := strings.TrimPrefix(strings.SplitN(f.dbURL, "?", 2)[0], "sqlite:")
	for _, name := range []string{file, file + "-wal", file + "-journal"} {
		raw, err := os.ReadFile(name)
		if os.IsNotExist(err) {
			continue
		}
		if err != nil {
			t.Fatal(err)
		}
		for what, v := range s.secrets {
			if !s.exactOnly[what] && bytes.Contains(raw, []byte(v)) {
				t.Errorf("the %s is in clear in the database file %s", what, name)
			}
		}
	}
}

// tables are the store's tables on its dialect.
func (s *secretScan) tables(db *sql.DB, d migrations.Dialect) []string {
	s.t.Helper()
	q := map[migrations.Dialect]string{
		migrations.SQLite:   "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'",
		migrations.Postgres: "SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema() AND table_type = 'BASE TABLE'",
		migrations.MySQL:    "SELECT table_name FROM information_schema.tables WHERE table_schema = database() AND table_type = 'BASE TABLE'",
	}[d]
	rows, err := db.Query(q)
	if err != nil {
		s.t.Fatal(err)
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var name string
		if err := rows.Scan(&name); err != nil {
			s.t.Fatal(err)
		}
		out = append(out, name)
	}
	if err := rows.Err(); err != nil {
		s.t.Fatal(err)
	}
	return out
}

// scanTable looks for the secrets in every value of every column of table; it returns how
// many values it read.
func (s *secretScan) scanTable(db *sql.DB, d migrations.Dialect, table string) int {
	s.t.Helper()
	quoted := `"` + table + `"`
	if d == migrations.MySQL {
		quoted = "`" + table + "`"
	}
	rows, err := db.Query("SELECT * FROM " + quoted)
	if err != nil {
		s.t.Fatalf("read %s: %v", table, err)
	}
	defer rows.Close()
	cols, err := rows.Columns()
	if err != nil {
		s.t.Fatal(err)
	}
	n := 0
	for rows.Next() {
		vals := make([]sql.RawBytes, len(cols))
		ptrs := make([]any, len(cols))
		for i := range vals {
			ptrs[i] = &vals[i]
		}
		if err := rows.Scan(ptrs...); err != nil {
			s.t.Fatalf("read %s: %v", table, err)
		}
		for i, v := range vals {
			s.findValue(fmt.Sprintf("the database, %s.%s", table, cols[i]), v)
			n++
		}
	}
	if err := rows.Err(); err != nil {
		s.t.Fatal(err)
	}
	return n
}

// scanDocuments looks for the secrets in every field of every document of the document store,
// nested documents and arrays included; it returns the collections and how many values it read.
func (s *secretScan) scanDocuments() ([]string, int) {
	s.t.Helper()
	n := 0
	var walk func(where string, doc bson.Raw)
	walk = func(where string, doc bson.Raw) {
		elems, err := doc.Elements()
		if err != nil {
			s.t.Fatalf("read %s: %v", where, err)
		}
		for _, e := range elems {
			at, v := where+"."+e.Key(), e.Value()
			switch v.Type {
			case bson.TypeEmbeddedDocument, bson.TypeArray:
				walk(at, v.Value)
				continue
			case bson.TypeString:
				s.findValue("the document store, "+at, []byte(v.StringValue()))
			case bson.TypeBinary:
				_, data := v.Binary()
				s.findValue("the document store, "+at, data)
			default:
				s.findValue("the document store, "+at, []byte(v.String()))
			}
			n++
		}
	}
	names := s.f.documents(s.t, func(collection string, doc bson.Raw) { walk(collection, doc) })
	return names, n
}
