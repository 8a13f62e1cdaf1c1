package handlers_test

import (
	"bytes"
	"context"
	"io"
	"log/slog"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"net/textproto"
	"net/url"
	"strings"
	"testing"
	"time"

	"usertasks/attachments"
	"usertasks/handlers"
	"usertasks/live"
	"usertasks/models"
	"usertasks/tasks"
	"usertasks/testfactory"
	"usertasks/websession"
)

// activityMaxSize is the fixture's file limit: small, so the limit is easy to pass.
const activityMaxSize = 4 << 10

// activityFixture is the web fixture with attachments served and a live broker running.
func activityFixture(t *testing.T) (*webFixture, *live.Broker) {
	t.Helper()
	st := testfactory.OpenStore(t, testfactory.SQLite, nil)
	f := &webFixture{store: st, svc: tasks.New(st, tasks.Options{}), now: time.Now()}
	var err error
	f.sessions, err = websession.New(websession.Config{Store: st, Secrets: [][]byte{[]byte(strings.Repeat("s", 32))}})
	if err != nil {
		t.Fatal(err)
	}
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	broker := live.NewBroker(st, live.Options{Logger: log})
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { defer close(done); _ = broker.Run(ctx) }()
	t.Cleanup(func() { cancel(); <-done })
	e := handlers.New(handlers.Deps{Store: st, Logger: log, Tasks: f.svc, Notifications: st, Live: broker, Watchers: f.svc,
		Attachments: attachments.New(st, f.svc, attachments.Options{MaxSize: activityMaxSize}),
		Web:         &handlers.WebDeps{Tasks: f.svc, Sessions: f.sessions, DevUsers: webDevUsers, Logger: log}})
	f.srv = httptest.NewServer(e)
	t.Cleanup(f.srv.Close)
	return f, broker
}

// uploadPart is one part of an upload form, in order.
type uploadPart struct {
	name, fileName, contentType string
	body                        []byte
}

// postMultipart posts parts to path as a browser posts a multipart form.
func (b *webBrowser) postMultipart(path string, parts ...uploadPart) *webPage {
	b.t.Helper()
	var body bytes.Buffer
	mw := multipart.NewWriter(&body)
	for _, p := range parts {
		h := textproto.MIMEHeader{}
		disp := `form-data; name="` + p.name + `"`
		if rest, ok := strings.CutPrefix(p.fileName, "*"); ok {
			disp += `; filename*=UTF-8''` + rest // RFC 5987, as some clients send names
			h.Set("Content-Type", webFirstOr(p.contentType, "application/octet-stream"))
		} else if p.fileName != "" || p.contentType != "" {
			disp += `; filename="` + p.fileName + `"`
			h.Set("Content-Type", webFirstOr(p.contentType, "application/octet-stream"))
		}
		h.Set("Content-Disposition", disp)
		w, err := mw.CreatePart(h)
		if err != nil {
			b.t.Fatal(err)
		}
		_, _ = w.Write(p.body)
	}
	_ = mw.Close()
	req, _ := http.NewRequest(http.MethodPost, b.f.srv.URL+path, &body)
	req.Header.Set("Content-Type", mw.FormDataContentType())
	return b.do(req)
}

// upload sends the page's upload form with one file.
func (b *webBrowser) upload(page *webPage, name, contentType string, data []byte) *webPage {
	b.t.Helper()
	form := page.one("upload-form")
	v := webFormValues(form)
	return b.postMultipart(webAttr(form, "action"),
		uploadPart{name: "csrf_token", body: []byte(v.Get("csrf_token"))},
		uploadPart{name: "expectedRevision", body: []byte(v.Get("expectedRevision"))},
		uploadPart{name: "operationId", body: []byte(v.Get("operationId"))},
		uploadPart{name: "file", fileName: name, contentType: contentType, body: data})
}

// smallPDF is a small file the sniffer takes for a PDF.
var smallPDF = []byte("%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n")

func TestActivitySection(t *testing.T) {
	f, broker := activityFixture(t)
	task := f.seed(t, webTaskOpts{})
	path := "/tasks/" + task.ID
	ann := f.signIn(t, "ann") // a candidate through the group finance
	sub, err := broker.Subscribe("t1", "watcher")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(sub.Close)
	heard := func(t *testing.T, kind live.Kind) {
		t.Helper()
		for {
			select {
			case ev := <-sub.Events():
				if ev.Kind() == kind && ev.TaskID == task.ID {
					return
				}
			case <-time.After(5 * time.Second):
				t.Fatalf("no %s change announced within 5 s", kind)
			}
		}
	}

	t.Run("EmptyWithForms", func(t *testing.T) {
		p := ann.get(path).wantStatus(http.StatusOK)
		p.one("activity-empty")
		webWantContains(t, "audience", p.text("activity-audience"), "Everyone who can see this task")
		p.one("comment-form")
		if enc := webAttr(p.one("upload-form"), "enctype"); enc != "multipart/form-data" {
			t.Errorf("upload form enctype = %q", enc)
		}
	})

	t.Run("CommentPRG", func(t *testing.T) {
		p := ann.get(path)
		res := ann.submit(p, "comment-form", url.Values{"text": {"Is the **IBAN** right? <script>alert(1)</script>"}}, nil)
		if res.status != http.StatusSeeOther || !strings.HasPrefix(res.location, path) {
			t.Fatalf("comment post: %d → %q, want 303 to the task", res.status, res.location)
		}
		page := ann.follow(res).wantStatus(http.StatusOK)
		c := page.one("comment")
		if got := webText(c); !strings.Contains(got, "Ann Approver") || !strings.Contains(got, "IBAN") {
			t.Errorf("comment = %q, want the author and the text", got)
		}
		body := page.body
		if !strings.Contains(body, "<strong>IBAN</strong>") {
			t.Errorf("the comment's Markdown is not rendered: %s", body)
		}
		if strings.Contains(body, "<script>alert(1)") {
			t.Error("raw HTML of a comment reached the page")
		}
		webWantContains(t, "flash", body, "Your comment was added.")
		heard(t, live.KindComment)
		if len(webWithin(c, "activity-delete")) != 1 {
			t.Error("the author cannot delete their fresh comment")
		}
		t.Run("Replay", func(t *testing.T) {
			// A double submit carries the same operation id: one comment.
			again := ann.submit(p, "comment-form", url.Values{"text": {"Is the **IBAN** right? <script>alert(1)</script>"}}, nil)
			if again.status != http.StatusSeeOther {
				t.Fatalf("replay: %d", again.status)
			}
			if n := len(ann.get(path).all("comment")); n != 1 {
				t.Errorf("%d comments after a double submit, want 1", n)
			}
		})
	})

	t.Run("ErrBlankComment", func(t *testing.T) {
		p := ann.get(path)
		res := ann.submit(p, "comment-form", url.Values{"text": {"   \n "}}, nil).wantStatus(http.StatusUnprocessableEntity)
		webWantContains(t, "error", res.text("error-comment"), "Write a comment first.")
		if webAttr(res.one("comment-text"), "aria-invalid") != "true" {
			t.Error("the comment box is not marked invalid")
		}
	})

	t.Run("ErrControlCharacter", func(t *testing.T) {
		p := ann.get(path)
		res := ann.submit(p, "comment-form", url.Values{"text": {"bell\x07here"}}, nil).wantStatus(http.StatusUnprocessableEntity)
		res.one("error-comment")
		// The text comes back as typed, so nothing is lost.
		webWantContains(t, "kept text", webText(res.one("comment-text")), "bell")
	})

	t.Run("ErrCSRF", func(t *testing.T) {
		before := len(ann.get(path).all("comment"))
		ann.post(path+"/comments", url.Values{"text": {"no token"}, "expectedRevision": {"1"}}).wantStatus(http.StatusForbidden)
		ann.postMultipart(path+"/attachments",
			uploadPart{name: "expectedRevision", body: []byte("1")},
			uploadPart{name: "file", fileName: "a.pdf", contentType: "application/pdf", body: smallPDF}).wantStatus(http.StatusForbidden)
		// A token after the file is no token: the file is never read before the check.
		ann.postMultipart(path+"/attachments",
			uploadPart{name: "expectedRevision", body: []byte("1")},
			uploadPart{name: "file", fileName: "a.pdf", contentType: "application/pdf", body: smallPDF},
			uploadPart{name: "csrf_token", body: []byte(ann.get(path).csrf())}).wantStatus(http.StatusForbidden)
		after := ann.get(path)
		if len(after.all("comment")) != before || after.has("attachment") {
			t.Error("a post without a token stored something")
		}
	})

	t.Run("Upload", func(t *testing.T) {
		p := ann.get(path)
		res := ann.upload(p, "../../Invoice März.pdf", "application/pdf", smallPDF)
		if res.status != http.StatusSeeOther {
			t.Fatalf("upload: %d; body:\n%s", res.status, res.body)
		}
		page := ann.follow(res)
		webWantContains(t, "flash", page.body, "Your file was attached.")
		heard(t, live.KindAttachment)
		a := page.one("attachment")
		link := webWithin(a, "attachment-download")
		if len(link) != 1 {
			t.Fatal("no download link")
		}
		webWantContains(t, "file", webText(link[0]), "Invoice März.pdf")
		dl := ann.get(webAttr(link[0], "href")).wantStatus(http.StatusOK)
		if dl.body != string(smallPDF) {
			t.Errorf("downloaded %q, want the uploaded bytes", dl.body)
		}
		if cd := dl.header.Get("Content-Disposition"); !strings.HasPrefix(cd, "attachment") {
			t.Errorf("Content-Disposition = %q", cd)
		}
	})

	refusals := []struct {
		name, file, ctype, want string
		data                    []byte
		status                  int
	}{
		{"ErrLyingType", "x.png", "image/png", "cannot be attached", []byte("<html><script>alert(1)</script></html>"), http.StatusUnsupportedMediaType},
		{"ErrTooLarge", "big.txt", "text/plain", "larger than 4 KiB", bytes.Repeat([]byte("a"), activityMaxSize+1), http.StatusRequestEntityTooLarge},
		{"ErrFarTooLarge", "huge.txt", "text/plain", "larger than 4 KiB", bytes.Repeat([]byte("a"), 200<<10), http.StatusRequestEntityTooLarge},
		{"ErrEmpty", "empty.pdf", "application/pdf", "The file is empty.", nil, http.StatusUnprocessableEntity},
		{"ErrNoFile", "", "application/octet-stream", "Choose a file first.", nil, http.StatusUnprocessableEntity},
		{"ErrControlInName", "*a%01b.pdf", "application/pdf", "not allowed", smallPDF, http.StatusUnprocessableEntity},
		{"ErrLongName", "*" + strings.Repeat("n", 300) + ".pdf", "application/pdf", "too long", smallPDF, http.StatusUnprocessableEntity},
	}
	for _, tc := range refusals {
		t.Run(tc.name, func(t *testing.T) {
			before := len(ann.get(path).all("attachment"))
			p := ann.get(path)
			res := ann.upload(p, tc.file, tc.ctype, tc.data)
			res.wantStatus(tc.status)
			webWantContains(t, "error", res.text("error-upload"), tc.want)
			if n := len(ann.get(path).all("attachment")); n != before {
				t.Errorf("%d attachments after a refused upload, want %d", n, before)
			}
		})
	}
}

func TestActivityReaders(t *testing.T) {
	f, _ := activityFixture(t)
	task := f.seed(t, webTaskOpts{assignee: "bob"}) // bob assignee, ann candidate, eve excluded
	path := "/tasks/" + task.ID
	ann, bob, boss := f.signIn(t, "ann"), f.signIn(t, "bob"), f.signIn(t, "boss")
	res := ann.submit(ann.get(path), "comment-form", url.Values{"text": {"from ann"}}, nil)
	if res.status != http.StatusSeeOther {
		t.Fatalf("comment: %d", res.status)
	}
	annPage := ann.get(path)
	del := annPage.one("activity-delete")
	delAction := webAttr(del, "action")

	t.Run("OutsidersGet404", func(t *testing.T) {
		for _, who := range []string{"eve", "otto"} {
			b := f.signIn(t, who)
			b.get(path).wantStatus(http.StatusNotFound)
			inbox := b.get("/inbox")
			b.post(path+"/comments", url.Values{"csrf_token": {inbox.csrf()}, "expectedRevision": {"1"}, "text": {"hi"}}).wantStatus(http.StatusNotFound)
			b.post(delAction, url.Values{"csrf_token": {inbox.csrf()}, "expectedRevision": {"1"}}).wantStatus(http.StatusNotFound)
		}
	})

	t.Run("AssigneeSeesNoDeleteAndIsRefused", func(t *testing.T) {
		p := bob.get(path).wantStatus(http.StatusOK)
		c := p.one("comment")
		webWantContains(t, "comment", webText(c), "from ann")
		if len(webWithin(c, "activity-delete")) != 0 {
			t.Error("bob is offered to delete ann's comment")
		}
		res := bob.post(delAction, url.Values{"csrf_token": {p.csrf()}, "expectedRevision": {"1"}}).wantStatus(http.StatusForbidden)
		webWantContains(t, "error", res.text("activity-error"), "Only its author")
	})

	t.Run("ManagerDeletes", func(t *testing.T) {
		p := boss.get(path)
		res := boss.submit(p, "activity-delete", nil, nil)
		if res.status != http.StatusSeeOther {
			t.Fatalf("delete: %d; body:\n%s", res.status, res.body)
		}
		page := boss.follow(res)
		webWantContains(t, "deleted", page.text("comment-deleted"), "This comment was deleted")
		if strings.Contains(page.body, "from ann") {
			t.Error("a deleted comment's text is still shown")
		}
	})

	t.Run("German", func(t *testing.T) {
		ann.lang = "de"
		defer func() { ann.lang = "" }()
		p := ann.get(path)
		webWantContains(t, "heading", p.body, "Aktivität")
		webWantContains(t, "audience", p.text("activity-audience"), "Alle, die diese Aufgabe sehen")
	})

	t.Run("ClosedTaskNoUpload", func(t *testing.T) {
		closed := f.seed(t, webTaskOpts{assignee: "bob"})
		if _, err := f.svc.Cancel(context.Background(), models.Actor{Tenant: "t1", Subject: models.ParticipantRef{Provider: "default", Type: models.UserParticipant, ID: "boss"}, Manager: true, Permissions: []string{"user-tasks:*"}}, closed.ID, tasks.CancelInput{Common: tasks.Common{ExpectedRevision: closed.Revision, OperationID: "c1"}, Reason: "gone"}); err != nil {
			t.Skipf("cancel: %v", err) // the cancel path is not what this test is about
		}
		p := bob.get("/tasks/" + closed.ID).wantStatus(http.StatusOK)
		p.one("comment-form")
		if p.has("upload-form") {
			t.Error("a closed task offers an upload")
		}
	})
}
