package handlers_test

import (
	"archive/zip"
	"bytes"
	"io"
	"mime"
	"mime/multipart"
	"net/http"
	"net/textproto"
	"strings"
	"testing"

	"usertasks/handlers/handlerstest"
	"usertasks/models"
)

// filePart is one part of a multipart upload.
type filePart struct {
	field, name, contentType string
	body                     []byte
	disposition              string // the whole Content-Disposition, instead of field and name
}

// multipartBody encodes parts as multipart/form-data; it returns the body and its content type.
func multipartBody(t *testing.T, parts ...filePart) ([]byte, string) {
	t.Helper()
	var buf bytes.Buffer
	w := multipart.NewWriter(&buf)
	for _, p := range parts {
		h := textproto.MIMEHeader{}
		disp := `form-data; name="` + p.field + `"`
		if p.name != "" { // as given: a browser escapes nothing but the quote
			disp += `; filename="` + strings.ReplaceAll(p.name, `"`, `\"`) + `"`
		}
		if p.disposition != "" {
			disp = p.disposition
		}
		h.Set("Content-Disposition", disp)
		if p.contentType != "" {
			h.Set("Content-Type", p.contentType)
		}
		pw, err := w.CreatePart(h)
		if err != nil {
			t.Fatal(err)
		}
		pw.Write(p.body)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes(), w.FormDataContentType()
}

func pdfBytes(n int) []byte {
	b := bytes.Repeat([]byte{'x'}, n)
	copy(b, "%PDF-1.7\n")
	return b
}

type attachmentWire struct {
	ID          string `json:"id"`
	FileName    string `json:"fileName"`
	ContentType string `json:"contentType"`
	Size        int64  `json:"size"`
	SHA256      string `json:"sha256"`
	UploadedBy  struct {
		ID string `json:"id"`
	} `json:"uploadedBy"`
}

func upload(t *testing.T, env *handlerstest.Env, token, taskID string, chunked bool, parts ...filePart) handlerstest.Response {
	t.Helper()
	body, ct := multipartBody(t, parts...)
	return env.Do(t, handlerstest.Request{Method: http.MethodPost, Path: handlerstest.TaskPath(taskID, "attachments"), Token: token,
		Body: body, Header: http.Header{"Content-Type": {ct}}, Chunked: chunked})
}

func TestAttachmentsAPI(t *testing.T) {
	env := handlerstest.SQLite(t, nil)
	annID := "ann/?# ü"
	ann := env.Token(t, handlerstest.Worker("acme", annID))
	bob := env.Token(t, handlerstest.Worker("acme", "bob"))
	boss := env.Token(t, handlerstest.Manager("acme", "boss"))
	task := env.Task(t, handlerstest.TaskOpts{Candidates: []string{annID, "bob"}})
	body := pdfBytes(5*models.AttachmentChunkSize/2 + 3) // over the 1 MiB body limit of every other route

	resp := upload(t, env, ann, task.ID, false, filePart{"file", `..\scans/Rechnung "Nº 7";a,b.pdf`, "application/pdf", body, ""})
	resp.WantStatus(t, http.StatusCreated)
	var att attachmentWire
	resp.JSON(t, &att)
	if att.FileName != `Rechnung "Nº 7";a,b.pdf` || att.ContentType != models.TypePDF || att.Size != int64(len(body)) || att.UploadedBy.ID != annID {
		t.Fatalf("uploaded %+v", att)
	}

	t.Run("ListedForReaders", func(t *testing.T) {
		for _, token := range []string{ann, bob, boss} {
			resp := env.Do(t, handlerstest.Request{Method: http.MethodGet, Path: handlerstest.TaskPath(task.ID, "attachments"), Token: token})
			resp.WantStatus(t, http.StatusOK)
			var list struct{ Items []attachmentWire }
			resp.JSON(t, &list)
			if len(list.Items) != 1 || list.Items[0].ID != att.ID {
				t.Fatalf("list %+v", list)
			}
		}
	})

	t.Run("DownloadHeaders", func(t *testing.T) {
		resp := env.Do(t, handlerstest.Request{Method: http.MethodGet, Path: handlerstest.TaskPath(task.ID, "attachments", att.ID), Token: boss})
		resp.WantStatus(t, http.StatusOK)
		if !bytes.Equal(resp.Body, body) {
			t.Fatalf("downloaded %d bytes, want %d equal", len(resp.Body), len(body))
		}
		h := resp.Header
		if h.Get("Content-Type") != models.TypePDF || h.Get("X-Content-Type-Options") != "nosniff" || h.Get("Content-Security-Policy") != "sandbox" {
			t.Fatalf("headers %v", h)
		}
		want := `attachment; filename="Rechnung _N_ 7__a,b.pdf"; filename*=UTF-8''Rechnung%20%22N%C2%BA%207%22%3Ba%2Cb.pdf`
		if got := h.Get("Content-Disposition"); got != want {
			t.Fatalf("Content-Disposition %q, want %q", got, want)
		}
		// A client's parser gets the name back whole (filename* wins over the ASCII fallback).
		if kind, params, err := mime.ParseMediaType(h.Get("Content-Disposition")); err != nil || kind != "attachment" || params["filename"] != att.FileName {
			t.Fatalf("parsed %q %v, %v; want the name %q", kind, params, err, att.FileName)
		}
	})

	t.Run("NotFoundAlike", func(t *testing.T) {
		eve := env.Token(t, handlerstest.Worker("acme", "eve"))
		other := env.Token(t, handlerstest.Manager("globex", "boss"))
		missing := env.Do(t, handlerstest.Request{Method: http.MethodGet, Path: handlerstest.TaskPath(task.ID, "attachments", models.NewID()), Token: boss})
		missing.WantProblem(t, http.StatusNotFound, "not-found")
		for _, token := range []string{eve, other} {
			resp := env.Do(t, handlerstest.Request{Method: http.MethodGet, Path: handlerstest.TaskPath(task.ID, "attachments", att.ID), Token: token})
			resp.WantProblem(t, http.StatusNotFound, "not-found")
			if !bytes.Equal(resp.Body, missing.Body) {
				t.Fatalf("an invisible attachment answers\n%s\nunlike a missing one\n%s", resp.Body, missing.Body)
			}
			upload(t, env, token, task.ID, false, filePart{"file", "x.pdf", "", pdfBytes(10), ""}).WantProblem(t, http.StatusNotFound, "not-found")
			env.Do(t, handlerstest.Request{Method: http.MethodDelete, Path: handlerstest.TaskPath(task.ID, "attachments", att.ID), Token: token}).
				WantProblem(t, http.StatusNotFound, "not-found")
		}
	})

	t.Run("DeleteRules", func(t *testing.T) {
		path := handlerstest.TaskPath(task.ID, "attachments", att.ID)
		env.Do(t, handlerstest.Request{Method: http.MethodDelete, Path: path, Token: bob}).WantProblem(t, http.StatusForbidden, "forbidden")
		env.Do(t, handlerstest.Request{Method: http.MethodDelete, Path: path, Token: ann}).WantStatus(t, http.StatusNoContent)
		env.Do(t, handlerstest.Request{Method: http.MethodGet, Path: path, Token: ann}).WantProblem(t, http.StatusNotFound, "not-found")
	})
}

func zipBytes(t *testing.T, names ...string) []byte {
	t.Helper()
	var buf bytes.Buffer
	w := zip.NewWriter(&buf)
	for _, n := range names {
		f, _ := w.Create(n)
		f.Write([]byte("x"))
	}
	w.Close()
	return buf.Bytes()
}

// Every refusal of an upload answers its documented problem and stores nothing visible.
func TestAttachmentUploadRefusals(t *testing.T) {
	env := handlerstest.SQLite(t, &handlerstest.Options{AttachmentMaxSize: models.AttachmentChunkSize + 100})
	ann := env.Token(t, handlerstest.Worker("acme", "ann"))
	task := env.Task(t, handlerstest.TaskOpts{Candidates: []string{"ann"}})
	ok := filePart{"file", "a.pdf", "application/pdf", pdfBytes(10), ""}
	for _, tc := range []struct {
		name    string
		parts   []filePart
		chunked bool
		status  int
		code    string
	}{
		{"MissingPart", []filePart{{"note", "", "", []byte("hi"), ""}}, false, 422, "validation-failed"},
		{"NoParts", nil, false, 422, "validation-failed"},
		{"FileWithoutName", []filePart{{"file", "", "", pdfBytes(10), ""}}, false, 422, "validation-failed"},
		{"TwoFiles", []filePart{ok, ok}, false, 422, "validation-failed"},
		{"Empty", []filePart{{"file", "a.pdf", "", nil, ""}}, false, 422, "validation-failed"},
		{"OverTheLimit", []filePart{{"file", "a.pdf", "", pdfBytes(models.AttachmentChunkSize + 101), ""}}, false, 413, "payload-too-large"},
		{"OverTheLimitChunked", []filePart{{"file", "a.pdf", "", pdfBytes(3 * models.AttachmentChunkSize), ""}}, true, 413, "payload-too-large"},
		{"HTMLAsPNG", []filePart{{"file", "a.png", "image/png", []byte("<!doctype html><script>alert(1)</script>"), ""}}, false, 415, "unsupported-media-type"},
		{"SVGAsPNG", []filePart{{"file", "a.png", "image/png", []byte(`<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"/>`), ""}}, false, 415, "unsupported-media-type"},
		{"ZIPNotOOXML", []filePart{{"file", "a.docx", "", zipBytes(t, "evil.exe"), ""}}, false, 415, "unsupported-media-type"},
		// A raw NUL breaks the part's header: malformed. Encoded (RFC 5987) it reaches the name rule.
		{"NameWithRawNUL", []filePart{{"file", "a\x00b.pdf", "", pdfBytes(10), ""}}, false, 400, "malformed-request"},
		{"NameWithEncodedNUL", []filePart{{disposition: `form-data; name="file"; filename*=UTF-8''a%00b.pdf`, body: pdfBytes(10)}}, false, 422, "validation-failed"},
		{"NameWithEncodedNewline", []filePart{{disposition: `form-data; name="file"; filename*=UTF-8''a%0D%0Ab.pdf`, body: pdfBytes(10)}}, false, 422, "validation-failed"},
		{"NameOf300Bytes", []filePart{{"file", strings.Repeat("n", 296) + ".pdf", "", pdfBytes(10), ""}}, false, 422, "validation-failed"},
		{"NameDotDot", []filePart{{"file", "../..", "", pdfBytes(10), ""}}, false, 422, "validation-failed"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			resp := upload(t, env, ann, task.ID, tc.chunked, tc.parts...)
			p := resp.WantProblem(t, tc.status, tc.code)
			if tc.status == 422 && !strings.Contains(strings.Join(p.Fields(), ","), "file") {
				t.Fatalf("fields %v, want file", p.Fields())
			}
			if n := env.Count(t, "SELECT COUNT(*) FROM user_task_attachments WHERE created_at IS NOT NULL"); n != 0 {
				t.Fatalf("%d attachments stored", n)
			}
		})
	}
	t.Run("NotMultipart", func(t *testing.T) {
		resp := env.Do(t, handlerstest.Request{Method: http.MethodPost, Path: handlerstest.TaskPath(task.ID, "attachments"), Token: ann,
			Body: map[string]string{"file": "x"}, Contract: handlerstest.Breaks})
		resp.WantProblem(t, http.StatusBadRequest, "malformed-request")
	})
	t.Run("ClosedTask", func(t *testing.T) {
		closed := env.Finalize(t, env.Task(t, handlerstest.TaskOpts{Candidates: []string{"ann"}}))
		upload(t, env, ann, closed.ID, false, ok).WantStatus(t, http.StatusConflict)
	})
	t.Run("BodyLimitStaysOnOtherRoutes", func(t *testing.T) {
		resp := env.Do(t, handlerstest.Request{Method: http.MethodPost, Path: handlerstest.TaskPath(task.ID, "claim"), Token: ann,
			Body: strings.Repeat("x", models.MaxRequestBodyBytes+1), Contract: handlerstest.Breaks})
		resp.WantProblem(t, http.StatusRequestEntityTooLarge, "payload-too-large")
	})
}

// A download whose bytes turn out corrupt after they began (the SHA-256 differs) ends the
// connection without a clean end, and the server logs a corrupt store naming the task.
func TestAttachmentCorruptDownloadAborts(t *testing.T) {
	env := handlerstest.SQLite(t, nil)
	ann := env.Token(t, handlerstest.Worker("acme", "ann"))
	task := env.Task(t, handlerstest.TaskOpts{Candidates: []string{"ann"}})
	body := pdfBytes(2*models.AttachmentChunkSize + 1)
	resp := upload(t, env, ann, task.ID, false, filePart{"file", "a.pdf", "", body, ""})
	resp.WantStatus(t, http.StatusCreated)
	var att attachmentWire
	resp.JSON(t, &att)
	env.Exec(t, "UPDATE user_task_attachments SET sha256 = ? WHERE id = ?", strings.Repeat("0", 64), att.ID)

	req, _ := http.NewRequest(http.MethodGet, env.URL+handlerstest.TaskPath(task.ID, "attachments", att.ID), nil)
	req.Header.Set("Authorization", "Bearer "+ann)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	got, err := io.ReadAll(res.Body)
	if err == nil {
		t.Fatalf("read %d of %d bytes and a clean end, want a broken download", len(got), len(body))
	}
	if logs := env.Logs.String(); !strings.Contains(logs, "corrupt store: task "+task.ID) {
		t.Fatalf("logs do not name the corrupt task:\n%s", logs)
	}
}
