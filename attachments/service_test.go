package attachments_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"testing"
	"time"

	"usertasks/attachments"
	"usertasks/models"
	"usertasks/store"
	"usertasks/tasks"
	"usertasks/testfactory"
)

// pdf is n bytes that sniff as a PDF.
func pdf(n int) []byte {
	b := bytes.Repeat([]byte{'x'}, n)
	copy(b, "%PDF-1.7\n")
	return b
}

type fixture struct {
	s    store.Store
	svc  *attachments.Service
	task models.Task
}

func newFixture(t *testing.T, max int64) fixture {
	t.Helper()
	s := testfactory.OpenStore(t, testfactory.SQLite, nil)
	task := testfactory.Task(context.Background(), t, s, &testfactory.TaskOpts{Candidates: []string{"ann", "bob"}})
	return fixture{s: s, svc: attachments.New(s, tasks.New(s, tasks.Options{}), attachments.Options{MaxSize: max}), task: task}
}

func (f fixture) upload(t *testing.T, a models.Actor, name string, body io.Reader) (models.Attachment, error) {
	t.Helper()
	return f.svc.Upload(t.Context(), a, f.task.ID, attachments.UploadInput{Name: name, Body: body})
}

func (f fixture) listed(t *testing.T) int {
	t.Helper()
	list, err := f.svc.List(t.Context(), testfactory.Manager("t1", "boss"), f.task.ID)
	if err != nil {
		t.Fatal(err)
	}
	return len(list)
}

func TestUploadListDownload(t *testing.T) {
	f := newFixture(t, 0)
	ann := testfactory.Person("t1", "ann")
	body := pdf(2*models.AttachmentChunkSize + 17)
	att, err := f.upload(t, ann, `C:\scans\..\Rechnung 7.pdf`, bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	if att.FileName != "Rechnung 7.pdf" || att.ContentType != models.TypePDF || att.Size != int64(len(body)) || att.Chunks != 3 {
		t.Fatalf("uploaded %+v", att)
	}
	// A candidate who did not upload reads it too (SPEC 10.1's readers), and a manager.
	for _, a := range []models.Actor{testfactory.Person("t1", "bob"), testfactory.Manager("t1", "boss")} {
		var got bytes.Buffer
		var meta models.Attachment
		err := f.svc.Download(t.Context(), a, f.task.ID, att.ID, func(m models.Attachment) (io.Writer, error) { meta = m; return &got, nil })
		if err != nil || !bytes.Equal(got.Bytes(), body) || meta.ID != att.ID {
			t.Fatalf("%s downloads %d bytes, %v", a.Subject.ID, got.Len(), err)
		}
	}
}

func TestUploadRefusals(t *testing.T) {
	ann := testfactory.Person("t1", "ann")
	for _, tc := range []struct {
		name   string
		max    int64
		a      models.Actor
		file   string
		body   io.Reader
		code   models.Code
		before func() error
	}{
		{"Empty", 0, ann, "a.pdf", bytes.NewReader(nil), models.CodeValidationFailed, nil},
		{"HTMLAsPDF", 0, ann, "a.pdf", strings.NewReader("<html><script>alert(1)</script>"), models.CodeUnsupportedMediaType, nil},
		{"SVG", 0, ann, "a.png", strings.NewReader(`<svg xmlns="http://www.w3.org/2000/svg"/>`), models.CodeUnsupportedMediaType, nil},
		{"OverTheLimitFirstChunk", 100, ann, "a.pdf", bytes.NewReader(pdf(101)), models.CodePayloadTooLarge, nil},
		{"OverTheLimitLater", models.AttachmentChunkSize + 10, ann, "a.pdf", bytes.NewReader(pdf(2 * models.AttachmentChunkSize)), models.CodePayloadTooLarge, nil},
		{"NameWithNUL", 0, ann, "a\x00.pdf", bytes.NewReader(pdf(10)), models.CodeValidationFailed, nil},
		{"NameTooLong", 0, ann, strings.Repeat("n", 300), bytes.NewReader(pdf(10)), models.CodeValidationFailed, nil},
		{"SecondPart", 0, ann, "a.pdf", bytes.NewReader(pdf(10)), models.CodeValidationFailed, func() error { return models.InvalidField("file", "one file only") }},
		{"Guest", 0, testfactory.Guest("t1", "inv-1", ""), "a.pdf", bytes.NewReader(pdf(10)), models.CodeNotFound, nil},
		{"NotACandidate", 0, testfactory.Person("t1", "eve"), "a.pdf", bytes.NewReader(pdf(10)), models.CodeNotFound, nil},
		{"OtherTenant", 0, testfactory.Manager("t2", "boss"), "a.pdf", bytes.NewReader(pdf(10)), models.CodeNotFound, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := newFixture(t, tc.max)
			_, err := f.svc.Upload(t.Context(), tc.a, f.task.ID, attachments.UploadInput{Name: tc.file, Body: tc.body, BeforeFinish: tc.before})
			if got := models.ErrorCode(err); got != tc.code {
				t.Fatalf("err %v (%s), want %s", err, got, tc.code)
			}
			if n := f.listed(t); n != 0 {
				t.Fatalf("%d attachments listed after a refusal", n)
			}
			f.noUnfinished(t)
		})
	}
}

// noUnfinished fails when an upload is left unfinished: a refused one is abandoned with its
// chunks at once, not left to the sweep. The sweep, told to take every unfinished upload
// (started before an hour from now), finds none.
func (f fixture) noUnfinished(t *testing.T) {
	t.Helper()
	n, err := f.s.SweepAttachmentUploads(t.Context(), -time.Hour, 100)
	if err != nil || n != 0 {
		t.Fatalf("the sweep found %d unfinished uploads (%v): a failed upload left its chunks", n, err)
	}
}

// stallingReader hands out its bytes, then fails as a connection whose read deadline passed.
type stallingReader struct {
	r io.Reader
}

func (s *stallingReader) Read(p []byte) (int, error) {
	n, err := s.r.Read(p)
	if errors.Is(err, io.EOF) {
		return n, os.ErrDeadlineExceeded
	}
	return n, err
}

// TestUploadFailingLaterIsAbandoned: an upload that fails after chunks were stored — the body
// stalls in its third chunk, the task holds its limit of files at the finish — leaves no
// unfinished upload and no chunk behind, and the earlier attachments stay.
func TestUploadFailingLaterIsAbandoned(t *testing.T) {
	ann := testfactory.Person("t1", "ann")
	t.Run("Stalled", func(t *testing.T) {
		f := newFixture(t, 0)
		_, err := f.upload(t, ann, "slow.pdf", &stallingReader{bytes.NewReader(pdf(2*models.AttachmentChunkSize + 5))})
		if !errors.Is(err, os.ErrDeadlineExceeded) {
			t.Fatalf("err %v, want the read's deadline error", err)
		}
		if n := f.listed(t); n != 0 {
			t.Fatalf("%d listed", n)
		}
		f.noUnfinished(t)
	})
	t.Run("LimitAtFinish", func(t *testing.T) {
		f := newFixture(t, 0)
		for i := range models.MaxAttachmentsPerTask {
			if _, err := f.upload(t, ann, fmt.Sprintf("%d.pdf", i), bytes.NewReader(pdf(10))); err != nil {
				t.Fatal(err)
			}
		}
		_, err := f.upload(t, ann, "one-too-many.pdf", bytes.NewReader(pdf(models.AttachmentChunkSize+3)))
		if models.ErrorCode(err) != models.CodeValidationFailed {
			t.Fatalf("err %v, want the per-task limit", err)
		}
		if n := f.listed(t); n != models.MaxAttachmentsPerTask {
			t.Fatalf("%d listed, want %d", n, models.MaxAttachmentsPerTask)
		}
		f.noUnfinished(t)
	})
}

func TestDeleteRules(t *testing.T) {
	f := newFixture(t, 0)
	att, err := f.upload(t, testfactory.Person("t1", "ann"), "a.pdf", bytes.NewReader(pdf(10)))
	if err != nil {
		t.Fatal(err)
	}
	if err := f.svc.Delete(t.Context(), testfactory.Person("t1", "bob"), f.task.ID, att.ID); !errors.Is(err, models.ErrForbidden) {
		t.Fatalf("another candidate deletes: %v", err)
	}
	if err := f.svc.Delete(t.Context(), testfactory.Person("t1", "eve"), f.task.ID, att.ID); !errors.Is(err, models.ErrNotFound) {
		t.Fatalf("a stranger deletes: %v", err)
	}
	if err := f.svc.Delete(t.Context(), testfactory.Person("t1", "ann"), f.task.ID, att.ID); err != nil {
		t.Fatalf("the uploader deletes: %v", err)
	}
	if n := f.listed(t); n != 0 {
		t.Fatalf("%d listed after delete", n)
	}
}
