package models

import (
	"strings"
	"time"
	"unicode/utf8"
)

// Attachments (SPEC 10.2): files on a task, stored in the store itself as sealed chunks. An
// upload writes its chunks under an unfinished row; only the finishing write, which checks
// the open status and the per-task limit and records the size and SHA-256, makes it listed.
const (
	// DefaultAttachmentMaxSize is USERTASKS_ATTACHMENT_MAX_SIZE's default: 10 MiB.
	DefaultAttachmentMaxSize = 10 << 20
	// AttachmentChunkSize is the most plain bytes one sealed chunk holds: an upload or a
	// download holds one chunk in memory, never the file.
	AttachmentChunkSize = 1 << 20
	// MaxAttachmentsPerTask is the most finished attachments a task holds.
	MaxAttachmentsPerTask = 20
	// MaxAttachmentFileNameBytes bounds a file name after its reduction to the last element.
	MaxAttachmentFileNameBytes = 255
	// AttachmentUploadBound is how long an unfinished upload may take before the sweep
	// removes it with its chunks (a crash mid-upload, a client that went away).
	AttachmentUploadBound = time.Hour
	// AttachmentDeleteWindow is how long the uploader may delete their own attachment;
	// managers may delete any time.
	AttachmentDeleteWindow = 15 * time.Minute
)

// The attachment events (metadata: id, size, content type — never the file name).
const (
	EventAttachmentAdded   EventType = "attachment-added"
	EventAttachmentDeleted EventType = "attachment-deleted"
)

// Attachment is one file on a task. FileName is protected (sealed at rest like the bytes);
// SHA256 is the lower-case hex digest of the bytes, checked on every read.
type Attachment struct {
	ID          string
	Tenant      string
	TaskID      string
	FileName    string
	ContentType string
	Size        int64
	SHA256      string
	Chunks      int // sealed chunks of at most AttachmentChunkSize bytes, numbered from 0
	UploadedBy  ParticipantRef
	CreatedAt   time.Time
}

// AttachmentFileName reduces a client's file name to its last path element (after the last `/`
// or `\`) and checks it: valid UTF-8, no control character (NUL included), at most
// MaxAttachmentFileNameBytes bytes, and neither empty nor `.` or `..`. A refusal is a
// validation error naming the field `file`.
func AttachmentFileName(name string) (string, error) {
	if i := strings.LastIndexAny(name, `/\`); i >= 0 {
		name = name[i+1:]
	}
	name = strings.TrimSpace(name)
	switch {
	case !utf8.ValidString(name):
		return "", InvalidField("file", "the file name is not valid UTF-8")
	case strings.IndexFunc(name, isControl) >= 0:
		return "", InvalidField("file", "the file name holds a control character")
	case len(name) > MaxAttachmentFileNameBytes:
		return "", InvalidField("file", "the file name is longer than 255 bytes")
	case name == "" || name == "." || name == "..":
		return "", InvalidField("file", "the file needs a name")
	}
	return name, nil
}

// isControl is a C0 or C1 control character or DEL.
func isControl(r rune) bool { return r < 0x20 || r >= 0x7f && r < 0xa0 }

// AttachmentUploadable refuses an upload to a task that is not open (SPEC 10.2: upload on
// open tasks only) before any byte is stored; AttachmentAdded checks again when it finishes.
func AttachmentUploadable(t Task) error {
	if err := checkStored(t); err != nil {
		return err
	}
	return requireOpen(t)
}

// AttachmentAdded is the event of finishing an upload (SPEC 10.2 `attachment-added`): the task
// must be open and hold fewer than MaxAttachmentsPerTask finished attachments (finished counts
// them, read in the finishing transaction). It changes no state: the event keeps the task's
// revision and takes the next sequence.
func AttachmentAdded(t Task, att Attachment, finished int, now time.Time) (Event, error) {
	if err := AttachmentUploadable(t); err != nil {
		return Event{}, err
	}
	switch {
	case att.Tenant != t.Tenant || att.TaskID != t.ID:
		return Event{}, ErrNotFound
	case att.Size <= 0:
		return Event{}, InvalidField("file", "the file is empty")
	case finished >= MaxAttachmentsPerTask:
		return Event{}, InvalidField("file", "a task holds at most 20 attachments")
	}
	ev, err := newEvent(t, Actor{Tenant: t.Tenant, Subject: att.UploadedBy}, EventAttachmentAdded, attachmentMetadata(att), now)
	return ev, err
}

// MayDeleteAttachment is SPEC 10.2's delete rule: a manager any time, the uploader within
// AttachmentDeleteWindow of the upload; never a guest or the system.
func MayDeleteAttachment(t Task, a Actor, att Attachment, now time.Time) bool {
	if manages(t, a) {
		return true
	}
	return a.Guest == nil && !a.System && a.Tenant == t.Tenant && a.Subject.Same(att.UploadedBy) &&
		!now.After(att.CreatedAt.Add(AttachmentDeleteWindow))
}

// AttachmentDeleted is the event of deleting att (SPEC 10.2 `attachment-deleted`); anyone
// MayDeleteAttachment refuses gets ErrForbidden. Works in any status.
func AttachmentDeleted(t Task, a Actor, att Attachment, now time.Time) (Event, error) {
	if err := checkStored(t); err != nil {
		return Event{}, err
	}
	if att.Tenant != t.Tenant || att.TaskID != t.ID {
		return Event{}, ErrNotFound
	}
	if !MayDeleteAttachment(t, a, att, now) {
		return Event{}, ErrForbidden
	}
	return newEvent(t, a, EventAttachmentDeleted, attachmentMetadata(att), now)
}

func attachmentMetadata(att Attachment) map[string]any {
	return map[string]any{"id": att.ID, "size": att.Size, "contentType": att.ContentType}
}
