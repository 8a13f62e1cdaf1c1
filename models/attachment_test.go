package models

import (
	"errors"
	"strings"
	"testing"
	"time"
)

func TestAttachmentFileName(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"invoice.pdf", "invoice.pdf"},
		{"../../etc/passwd", "passwd"},
		{`C:\Users\me\scan 1.png`, "scan 1.png"},
		{"dir/sub/Übersicht ü.csv", "Übersicht ü.csv"},
		{"a?b#c%2F.txt", "a?b#c%2F.txt"}, // URL-looking characters are plain name characters
		{"  spaced.txt  ", "spaced.txt"},
		{strings.Repeat("n", 255), strings.Repeat("n", 255)},
	} {
		got, err := AttachmentFileName(tc.in)
		if err != nil || got != tc.want {
			t.Errorf("AttachmentFileName(%q) = %q, %v; want %q", tc.in, got, err, tc.want)
		}
	}
	for _, in := range []string{
		"", "   ", ".", "..", "dir/", "dir/..", `a\.`,
		"a\x00b.txt", "line\nbreak.txt", "tab\t.txt", "del\x7f.txt", "c1\u0085.txt", "bad\xff.txt",
		strings.Repeat("n", 256), strings.Repeat("ü", 128), // 256 bytes
	} {
		_, err := AttachmentFileName(in)
		var ve *ValidationError
		if !errors.As(err, &ve) || ve.Fields[0].Field != "file" {
			t.Errorf("AttachmentFileName(%q) = %v; want a validation error naming file", in, err)
		}
	}
}

func TestAttachmentAdded(t *testing.T) {
	task := newTask(t, &taskOpts{status: StatusAssigned})
	att := Attachment{ID: "a1", Tenant: task.Tenant, TaskID: task.ID, FileName: "secret-name.pdf", ContentType: TypePDF, Size: 12, UploadedBy: userRef("alice")}
	t.Run("OK", func(t *testing.T) {
		ev, err := AttachmentAdded(task, att, MaxAttachmentsPerTask-1, now)
		if err != nil {
			t.Fatal(err)
		}
		if ev.Type != EventAttachmentAdded || ev.Revision != task.Revision || ev.Seq != task.LastEventSeq+1 || ev.Actor == nil || ev.Actor.ID != "alice" {
			t.Fatalf("event = %+v", ev)
		}
		if got, want := string(ev.Metadata), `{"contentType":"application/pdf","id":"a1","size":12}`; got != want {
			t.Fatalf("metadata = %s, want %s", got, want)
		}
	})
	t.Run("ErrLimit", func(t *testing.T) {
		if _, err := AttachmentAdded(task, att, MaxAttachmentsPerTask, now); ErrorCode(err) != CodeValidationFailed {
			t.Fatalf("err = %v", err)
		}
	})
	t.Run("ErrEmpty", func(t *testing.T) {
		empty := att
		empty.Size = 0
		if _, err := AttachmentAdded(task, empty, 0, now); ErrorCode(err) != CodeValidationFailed {
			t.Fatalf("err = %v", err)
		}
	})
	t.Run("ErrTerminal", func(t *testing.T) {
		done := newTask(t, &taskOpts{status: StatusCompleted})
		a := att
		a.TaskID = done.ID
		if _, err := AttachmentAdded(done, a, 0, now); ErrorCode(err) != CodeTerminal {
			t.Fatalf("err = %v", err)
		}
	})
	t.Run("ErrOtherTask", func(t *testing.T) {
		a := att
		a.Tenant = "other"
		if _, err := AttachmentAdded(task, a, 0, now); !errors.Is(err, ErrNotFound) {
			t.Fatalf("err = %v", err)
		}
	})
}

func TestAttachmentDeleted(t *testing.T) {
	task := newTask(t, &taskOpts{status: StatusCompleted})
	att := Attachment{ID: "a1", Tenant: task.Tenant, TaskID: task.ID, Size: 1, UploadedBy: userRef("alice"), CreatedAt: now}
	for _, tc := range []struct {
		name string
		a    Actor
		at   time.Time
		ok   bool
	}{
		{"UploaderInWindow", person("alice"), now.Add(AttachmentDeleteWindow), true},
		{"UploaderLate", person("alice"), now.Add(AttachmentDeleteWindow + time.Microsecond), false},
		{"Manager", manager("boss"), now.Add(24 * time.Hour), true},
		{"OtherPerson", person("bob"), now, false},
		{"Guest", guest(task, "inv-1"), now, false},
		{"System", Actor{Tenant: testTenant, System: true, Subject: userRef("alice")}, now, false},
		{"OtherTenantUploader", Actor{Tenant: "other", Subject: ParticipantRef{Tenant: "other", Provider: DefaultProvider, Type: UserParticipant, ID: "alice"}}, now, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ev, err := AttachmentDeleted(task, tc.a, att, tc.at)
			if tc.ok != (err == nil) {
				t.Fatalf("err = %v, want ok=%v", err, tc.ok)
			}
			if tc.ok && (ev.Type != EventAttachmentDeleted || ev.Revision != task.Revision) {
				t.Fatalf("event = %+v", ev)
			}
			if !tc.ok && !errors.Is(err, ErrForbidden) {
				t.Fatalf("err = %v, want forbidden", err)
			}
		})
	}
}
