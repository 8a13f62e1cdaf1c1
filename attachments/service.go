// Package attachments is the service of the files on tasks (SPEC 10.2): who may upload, list,
// download and delete them, the type decided from the bytes, the size limit enforced while
// the upload streams, and the store's three-step upload (store.Attachments). It never holds a
// whole file: one chunk of models.AttachmentChunkSize at a time, in and out.
package attachments

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"hash"
	"io"
	"time"

	"usertasks/models"
)

// Store is what the service needs of the store (store.Attachments).
type Store interface {
	BeginAttachment(ctx context.Context, att models.Attachment) (models.Attachment, error)
	PutAttachmentChunk(ctx context.Context, tenant, taskID, id string, seq int, data []byte) error
	FinishAttachment(ctx context.Context, att models.Attachment) (models.Attachment, error)
	Attachments(ctx context.Context, tenant, taskID string) ([]models.Attachment, error)
	Attachment(ctx context.Context, tenant, taskID, id string) (models.Attachment, error)
	ReadAttachment(ctx context.Context, tenant, taskID, id string, each func(chunk []byte) error) (models.Attachment, error)
	DeleteAttachment(ctx context.Context, a models.Actor, taskID, id string) (models.Attachment, error)
	AbandonAttachment(ctx context.Context, tenant, taskID, id string) error
}

// Readers decides who may read a task's summary, and so its attachments; *tasks.Service
// satisfies it (SummaryReader).
type Readers interface {
	SummaryReader(ctx context.Context, a models.Actor, id string) (models.Task, error)
}

// Options tune the service.
type Options struct {
	// MaxSize is the most bytes a file may hold (USERTASKS_ATTACHMENT_MAX_SIZE); default
	// models.DefaultAttachmentMaxSize.
	MaxSize int64
}

// UploadInput is one file to upload.
type UploadInput struct {
	Name string    // the client's file name, reduced to its last element
	Body io.Reader // the bytes, read one chunk at a time
	// BeforeChunk, when set, runs before each chunk is read: the handler extends the
	// connection's read deadline there, so the server's read timeout applies per chunk, not
	// to the whole file.
	BeforeChunk func()
	// BeforeFinish, when set, runs once every byte was read and before the attachment is
	// finished: its error (a second file part) refuses the upload.
	BeforeFinish func() error
}

// Service serves the attachments of tasks.
type Service struct {
	store   Store
	readers Readers
	o       Options
}

// New builds a Service.
func New(store Store, readers Readers, o Options) *Service {
	if o.MaxSize <= 0 {
		o.MaxSize = models.DefaultAttachmentMaxSize
	}
	return &Service{store: store, readers: readers, o: o}
}

// MaxSize is the most bytes a file may hold.
func (s *Service) MaxSize() int64 { return s.o.MaxSize }

// Upload stores in.Body as an attachment of task taskID by a: the name reduced to its last
// element (models.AttachmentFileName), the type decided from the bytes, at most MaxSize bytes
// (refused as soon as the stream passes it), on an open task of which a may read the summary.
// A refused upload is never listed: a type the first chunk's head refuses stores nothing, and
// an upload that fails later (over the limit, a stalled or broken body, a second part, text
// that turns out not to be text, a file too short to decide before its end, a refused finish)
// is abandoned with its chunks at once; only a crash leaves them to the upload sweep.
func (s *Service) Upload(ctx context.Context, a models.Actor, taskID string, in UploadInput) (models.Attachment, error) {
	r := in.Body
	task, err := s.readers.SummaryReader(ctx, a, taskID)
	if err != nil {
		return models.Attachment{}, err
	}
	if err := models.AttachmentUploadable(task); err != nil {
		return models.Attachment{}, err
	}
	name, err := models.AttachmentFileName(in.Name)
	if err != nil {
		return models.Attachment{}, err
	}
	up := upload{s: s, before: in.BeforeChunk, sniff: models.NewAttachmentSniffer(), sum: sha256.New(), buf: make([]byte, models.AttachmentChunkSize)}
	// The first chunk's head decides most types before anything is stored; text is checked to
	// the last byte, and a file shorter than the head is decided only at its end (fill).
	first, err := up.next(r)
	if err != nil {
		return models.Attachment{}, err
	}
	if len(first) == 0 {
		return models.Attachment{}, models.InvalidField("file", "the file is empty")
	}
	att, err := s.store.BeginAttachment(ctx, models.Attachment{Tenant: task.Tenant, TaskID: task.ID, FileName: name, UploadedBy: *a.Ref()})
	if err != nil {
		return models.Attachment{}, err
	}
	out, err := s.fill(ctx, &up, r, in.BeforeFinish, att, first)
	if err != nil {
		s.abandon(ctx, att)
		return models.Attachment{}, err
	}
	return out, nil
}

// abandonTimeout bounds the removal of a failed upload's chunks.
const abandonTimeout = 15 * time.Second

// abandon removes a failed upload's chunks at once. The request's context may be cancelled
// already (a client that went away, a stalled body), so the removal gets its own; should it
// fail, the upload sweep removes them later.
func (s *Service) abandon(ctx context.Context, att models.Attachment) {
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), abandonTimeout)
	defer cancel()
	_ = s.store.AbandonAttachment(ctx, att.Tenant, att.TaskID, att.ID)
}

// fill stores the begun upload att's chunks, first and the rest of r, and finishes it.
func (s *Service) fill(ctx context.Context, up *upload, r io.Reader, beforeFinish func() error, att models.Attachment, first []byte) (models.Attachment, error) {
	var err error
	for chunk := first; len(chunk) > 0; {
		if err := s.store.PutAttachmentChunk(ctx, att.Tenant, att.TaskID, att.ID, att.Chunks, chunk); err != nil {
			return models.Attachment{}, err
		}
		att.Chunks++
		if chunk, err = up.next(r); err != nil {
			return models.Attachment{}, err
		}
	}
	if att.ContentType, err = up.sniff.Type(); err != nil {
		return models.Attachment{}, err
	}
	if beforeFinish != nil {
		if err := beforeFinish(); err != nil {
			return models.Attachment{}, err
		}
	}
	att.Size, att.SHA256 = up.size, hex.EncodeToString(up.sum.Sum(nil))
	return s.store.FinishAttachment(ctx, att)
}

// upload is one file being read: the chunk buffer (reused), its sniffer, hash and size.
type upload struct {
	s      *Service
	before func()
	sniff  *models.AttachmentSniffer
	sum    hash.Hash
	buf    []byte
	size   int64
}

// next reads the next chunk (empty at the end), checking the limit and the type as it goes.
func (u *upload) next(r io.Reader) ([]byte, error) {
	if u.before != nil {
		u.before()
	}
	n, err := io.ReadFull(r, u.buf)
	if err != nil && !errors.Is(err, io.EOF) && !errors.Is(err, io.ErrUnexpectedEOF) {
		return nil, err
	}
	chunk := u.buf[:n]
	if u.size += int64(n); u.size > u.s.o.MaxSize {
		return nil, models.AttachmentTooLarge(u.s.o.MaxSize)
	}
	if _, err := u.sniff.Write(chunk); err != nil {
		return nil, err
	}
	u.sum.Write(chunk)
	return chunk, nil
}

// List lists the task's attachments for a reader of its summary, oldest first.
func (s *Service) List(ctx context.Context, a models.Actor, taskID string) ([]models.Attachment, error) {
	task, err := s.readers.SummaryReader(ctx, a, taskID)
	if err != nil {
		return nil, err
	}
	return s.store.Attachments(ctx, task.Tenant, task.ID)
}

// Download streams one attachment to a reader of the task's summary: start gets its metadata
// (the answer's headers) and returns where the bytes go, one chunk at a time. A corrupt store
// (a chunk that does not open, a SHA-256 that differs) fails after the chunks before it were
// written; the caller must then abort its answer rather than end it cleanly.
func (s *Service) Download(ctx context.Context, a models.Actor, taskID, id string, start func(models.Attachment) (io.Writer, error)) error {
	task, err := s.readers.SummaryReader(ctx, a, taskID)
	if err != nil {
		return err
	}
	att, err := s.store.Attachment(ctx, task.Tenant, task.ID, id)
	if err != nil {
		return err
	}
	w, err := start(att)
	if err != nil {
		return err
	}
	_, err = s.store.ReadAttachment(ctx, task.Tenant, task.ID, id, func(chunk []byte) error {
		_, err := w.Write(chunk)
		return err
	})
	return err
}

// Delete deletes an attachment: the uploader within models.AttachmentDeleteWindow, or a
// manager (models.AttachmentDeleted decides in the store's write), readers of the summary only.
func (s *Service) Delete(ctx context.Context, a models.Actor, taskID, id string) error {
	task, err := s.readers.SummaryReader(ctx, a, taskID)
	if err != nil {
		return err
	}
	_, err = s.store.DeleteAttachment(ctx, a, task.ID, id)
	return err
}
