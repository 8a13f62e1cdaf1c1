package storetest

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"sync/atomic"
	"testing"
	"time"

	"usertasks/models"
	"usertasks/store"
	"usertasks/storekit"
)

// Attachments (SPEC 10.2, store.Attachments): sealed chunks written under an unfinished row,
// finished in one write, streamed back in order with the SHA-256 checked.

// patterned is n deterministic bytes that differ per position (a chunk out of place shows).
func patterned(n int) []byte {
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(i*7 + i/251)
	}
	return b
}

// uploadFrom stores r's bytes as an attachment of task by who through the three steps, in
// chunks of models.AttachmentChunkSize, holding one chunk at a time; finish's error is
// returned (the earlier steps must succeed).
func uploadFrom(t *testing.T, s store.Store, task models.Task, who models.ParticipantRef, name string, r io.Reader) (models.Attachment, error) {
	t.Helper()
	att, err := s.BeginAttachment(ctx(t), models.Attachment{Tenant: task.Tenant, TaskID: task.ID, FileName: name, UploadedBy: who})
	if err != nil {
		t.Fatalf("begin: %v", err)
	}
	h := sha256.New()
	buf := make([]byte, models.AttachmentChunkSize)
	for {
		n, err := io.ReadFull(r, buf)
		if n > 0 {
			h.Write(buf[:n])
			if perr := s.PutAttachmentChunk(ctx(t), task.Tenant, task.ID, att.ID, att.Chunks, buf[:n]); perr != nil {
				t.Fatalf("chunk %d: %v", att.Chunks, perr)
			}
			att.Chunks++
			att.Size += int64(n)
		}
		if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	att.ContentType, att.SHA256 = "application/pdf", hex.EncodeToString(h.Sum(nil))
	return s.FinishAttachment(ctx(t), att)
}

func mustUpload(t *testing.T, s store.Store, task models.Task, who models.ParticipantRef, name string, body []byte) models.Attachment {
	t.Helper()
	att, err := uploadFrom(t, s, task, who, name, bytes.NewReader(body))
	if err != nil {
		t.Fatalf("finish %s: %v", name, err)
	}
	return att
}

// readAll reads an attachment back and the sizes of the chunks it came in.
func readAll(t *testing.T, s store.Store, tenant, taskID, id string) ([]byte, []int, error) {
	t.Helper()
	var out bytes.Buffer
	var sizes []int
	_, err := s.ReadAttachment(ctx(t), tenant, taskID, id, func(chunk []byte) error {
		sizes = append(sizes, len(chunk))
		out.Write(chunk)
		return nil
	})
	return out.Bytes(), sizes, err
}

func wantCorrupt(t *testing.T, err error, taskID string) {
	t.Helper()
	var ce *models.CorruptError
	if !errors.As(err, &ce) || ce.TaskID != taskID {
		t.Fatalf("err %v, want a corrupt-store error naming task %s", err, taskID)
	}
}

func testAttachments(t *testing.T, h Harness) {
	ann := User("t1", "ann")
	openTask := func(t *testing.T, s store.Store, tenant string) models.Task {
		return CreateTask(t, s, TaskOpts{Tenant: tenant, CandidateUsers: []string{"ann"}})
	}

	t.Run("RoundTrip", func(t *testing.T) {
		s := h.open(t, Options{})
		task := openTask(t, s, "t1")
		for _, n := range []int{1, models.AttachmentChunkSize, 5 * models.AttachmentChunkSize / 2} {
			body := patterned(n)
			att := mustUpload(t, s, task, ann, "dir/../Rechnung Nº 7?#.pdf", body)
			sum := sha256.Sum256(body)
			if att.ID == "" || att.FileName != "Rechnung Nº 7?#.pdf" || att.Size != int64(n) || att.SHA256 != hex.EncodeToString(sum[:]) ||
				att.Chunks != (n+models.AttachmentChunkSize-1)/models.AttachmentChunkSize || att.CreatedAt.IsZero() || !att.UploadedBy.Same(ann) {
				t.Fatalf("%d bytes: finished %+v", n, att)
			}
			got, sizes, err := readAll(t, s, "t1", task.ID, att.ID)
			if err != nil || !bytes.Equal(got, body) {
				t.Fatalf("%d bytes: read %d bytes, %v", n, len(got), err)
			}
			for i, sz := range sizes {
				if sz > models.AttachmentChunkSize || i < len(sizes)-1 && sz != models.AttachmentChunkSize {
					t.Fatalf("%d bytes: chunks of %v", n, sizes)
				}
			}
			read, err := s.Attachment(ctx(t), "t1", task.ID, att.ID)
			if err != nil || read.FileName != att.FileName || read.SHA256 != att.SHA256 || !read.CreatedAt.Equal(att.CreatedAt) || read.ContentType != "application/pdf" {
				t.Fatalf("%d bytes: read back %+v, %v; finished %+v", n, read, err, att)
			}
		}
		list, err := s.Attachments(ctx(t), "t1", task.ID)
		if err != nil || len(list) != 3 || list[0].Size != 1 || list[2].Size != 5*models.AttachmentChunkSize/2 {
			t.Fatalf("list %+v, %v", list, err)
		}
		after := mustGet(t, s, "t1", task.ID)
		if after.Revision != task.Revision {
			t.Fatalf("revision %d → %d: an attachment bumps no revision", task.Revision, after.Revision)
		}
		evs := mustEvents(t, s, "t1", task.ID)
		last := evs[len(evs)-1]
		if last.Type != models.EventAttachmentAdded || last.Actor == nil || last.Actor.ID != "ann" ||
			string(last.Metadata) != fmt.Sprintf(`{"contentType":"application/pdf","id":"%s","size":%d}`, list[2].ID, list[2].Size) {
			t.Fatalf("last event %+v %s", last, last.Metadata)
		}
		if h.CountContaining != nil {
			if n := h.CountContaining(t, s, storekit.AttachmentTable, storekit.ColFileName, "Rechnung"); n != 0 {
				t.Fatalf("%d rows hold the file name in plain text", n)
			}
		}
	})

	t.Run("EmptyRefused", func(t *testing.T) {
		s := h.open(t, Options{})
		task := openTask(t, s, "t1")
		_, err := uploadFrom(t, s, task, ann, "empty.txt", bytes.NewReader(nil))
		wantField(t, err, "file")
		att, err := s.BeginAttachment(ctx(t), models.Attachment{Tenant: "t1", TaskID: task.ID, FileName: "x.txt", UploadedBy: ann})
		if err != nil {
			t.Fatal(err)
		}
		wantField(t, s.PutAttachmentChunk(ctx(t), "t1", task.ID, att.ID, 0, nil), "file")
		wantField(t, s.PutAttachmentChunk(ctx(t), "t1", task.ID, att.ID, 0, make([]byte, models.AttachmentChunkSize+1)), "file")
		if list, _ := s.Attachments(ctx(t), "t1", task.ID); len(list) != 0 {
			t.Fatalf("listed %+v", list)
		}
	})

	t.Run("FileNameRefused", func(t *testing.T) {
		s := h.open(t, Options{})
		task := openTask(t, s, "t1")
		for _, name := range []string{"../", "a\x00b", string(patterned(300))} {
			_, err := s.BeginAttachment(ctx(t), models.Attachment{Tenant: "t1", TaskID: task.ID, FileName: name, UploadedBy: ann})
			wantField(t, err, "file")
		}
	})

	t.Run("IncompleteRefused", func(t *testing.T) {
		s := h.open(t, Options{})
		task := openTask(t, s, "t1")
		att, err := s.BeginAttachment(ctx(t), models.Attachment{Tenant: "t1", TaskID: task.ID, FileName: "x.pdf", UploadedBy: ann})
		if err != nil {
			t.Fatal(err)
		}
		body := patterned(10)
		if err := s.PutAttachmentChunk(ctx(t), "t1", task.ID, att.ID, 1, body); err != nil { // chunk 0 never written
			t.Fatal(err)
		}
		if err := s.PutAttachmentChunk(ctx(t), "t1", task.ID, att.ID, 1, body); !errors.Is(err, models.ErrConflict) {
			t.Fatalf("chunk written twice: %v", err)
		}
		sum := sha256.Sum256(body)
		att.ContentType, att.SHA256, att.Size, att.Chunks = "text/plain", hex.EncodeToString(sum[:]), 10, 1
		_, err = s.FinishAttachment(ctx(t), att)
		wantField(t, err, "file")
		att.Chunks, att.Size = 2, 10
		_, err = s.FinishAttachment(ctx(t), att)
		wantField(t, err, "file")
	})

	t.Run("ChunkOrder", func(t *testing.T) {
		s := h.open(t, Options{})
		task := openTask(t, s, "t1")
		att := mustUpload(t, s, task, ann, "three.pdf", patterned(3*models.AttachmentChunkSize))
		if err := h.Tamper(t, s, CopyChunk, storekit.ChunkID(att.ID, 0), storekit.ChunkID(att.ID, 1)); err != nil {
			h.notApplicable(t, err.Error())
		}
		got, _, err := readAll(t, s, "t1", task.ID, att.ID)
		wantCorrupt(t, err, task.ID)
		if len(got) != models.AttachmentChunkSize {
			t.Fatalf("handed out %d bytes before the swapped chunk, want the first chunk only", len(got))
		}
	})

	t.Run("MissingChunk", func(t *testing.T) {
		s := h.open(t, Options{})
		task := openTask(t, s, "t1")
		att := mustUpload(t, s, task, ann, "two.pdf", patterned(models.AttachmentChunkSize+5))
		if err := h.Tamper(t, s, DropChunk, storekit.ChunkID(att.ID, 1)); err != nil {
			h.notApplicable(t, err.Error())
		}
		_, _, err := readAll(t, s, "t1", task.ID, att.ID)
		wantCorrupt(t, err, task.ID)
	})

	t.Run("HashMismatch", func(t *testing.T) {
		s := h.open(t, Options{})
		task := openTask(t, s, "t1")
		att := mustUpload(t, s, task, ann, "one.pdf", patterned(100))
		if err := h.Tamper(t, s, CorruptAttachmentHash, att.ID); err != nil {
			h.notApplicable(t, err.Error())
		}
		_, _, err := readAll(t, s, "t1", task.ID, att.ID)
		wantCorrupt(t, err, task.ID)
	})

	t.Run("Limit", func(t *testing.T) {
		s := h.open(t, Options{})
		task := openTask(t, s, "t1")
		for i := range models.MaxAttachmentsPerTask {
			mustUpload(t, s, task, ann, fmt.Sprintf("f%02d.pdf", i), []byte{byte(i)})
		}
		_, err := uploadFrom(t, s, task, ann, "one-too-many.pdf", bytes.NewReader([]byte("x")))
		wantField(t, err, "file")
		if list, _ := s.Attachments(ctx(t), "t1", task.ID); len(list) != models.MaxAttachmentsPerTask {
			t.Fatalf("listed %d", len(list))
		}
	})

	t.Run("OpenTasksOnly", func(t *testing.T) {
		s := h.open(t, Options{})
		done := CreateTask(t, s, TaskOpts{Tenant: "t1", Status: models.StatusCompleted, CompletedBy: &ann})
		_, err := s.BeginAttachment(ctx(t), models.Attachment{Tenant: "t1", TaskID: done.ID, FileName: "x.pdf", UploadedBy: ann})
		wantCode(t, err, models.CodeTerminal)
	})

	t.Run("UnfinishedInvisibleAndSwept", func(t *testing.T) {
		var shift atomic.Int64
		s := h.open(t, Options{Clock: func(now time.Time) time.Time { return now.Add(time.Duration(shift.Load())) }})
		task := openTask(t, s, "t1")
		kept := mustUpload(t, s, task, ann, "kept.pdf", patterned(10))
		att, err := s.BeginAttachment(ctx(t), models.Attachment{Tenant: "t1", TaskID: task.ID, FileName: "crashed.pdf", UploadedBy: ann})
		if err != nil {
			t.Fatal(err)
		}
		for seq := range 2 {
			if err := s.PutAttachmentChunk(ctx(t), "t1", task.ID, att.ID, seq, patterned(models.AttachmentChunkSize)); err != nil {
				t.Fatal(err)
			}
		}
		if list, _ := s.Attachments(ctx(t), "t1", task.ID); len(list) != 1 || list[0].ID != kept.ID {
			t.Fatalf("listed %+v", list)
		}
		_, err = s.Attachment(ctx(t), "t1", task.ID, att.ID)
		wantIs(t, err, models.ErrNotFound)
		_, _, err = readAll(t, s, "t1", task.ID, att.ID)
		wantIs(t, err, models.ErrNotFound)
		if n, err := s.SweepAttachmentUploads(ctx(t), models.AttachmentUploadBound, 100); err != nil || n != 0 {
			t.Fatalf("swept a fresh upload: %d, %v", n, err)
		}
		shift.Store(int64(models.AttachmentUploadBound + time.Minute))
		late := fresh(t, s, task, ann) // started now (shifted): not old enough
		if n, err := s.SweepAttachmentUploads(ctx(t), models.AttachmentUploadBound, 100); err != nil || n != 1 {
			t.Fatalf("swept %d, %v; want the crashed upload only", n, err)
		}
		err = s.PutAttachmentChunk(ctx(t), "t1", task.ID, att.ID, 2, []byte("x"))
		wantIs(t, err, models.ErrNotFound)
		if h.CountRecords != nil {
			if n := h.CountRecords(t, s, storekit.AttachmentChunkTable, map[string]any{"attachment_id": att.ID}); n != 0 {
				t.Fatalf("%d chunks of the swept upload remain", n)
			}
		}
		if _, _, err := readAll(t, s, "t1", task.ID, kept.ID); err != nil {
			t.Fatalf("the finished attachment: %v", err)
		}
		if _, err := s.Attachment(ctx(t), "t1", task.ID, late.ID); !errors.Is(err, models.ErrNotFound) {
			t.Fatalf("the late upload: %v", err)
		}
	})

	t.Run("AbandonRemovesAnUnfinishedUpload", func(t *testing.T) {
		s := h.open(t, Options{})
		task := openTask(t, s, "t1")
		other := openTask(t, s, "t1")
		kept := mustUpload(t, s, task, ann, "kept.pdf", patterned(models.AttachmentChunkSize+2))
		failed := fresh(t, s, task, ann)
		if err := s.PutAttachmentChunk(ctx(t), "t1", task.ID, failed.ID, 1, []byte("more")); err != nil {
			t.Fatal(err)
		}
		// Another tenant, another task, a finished attachment, an unknown id: nothing to do.
		for _, tc := range []struct{ tenant, taskID, id string }{
			{"t2", task.ID, failed.ID}, {"t1", other.ID, failed.ID}, {"t1", task.ID, kept.ID}, {"t1", task.ID, "../" + failed.ID},
		} {
			if err := s.AbandonAttachment(ctx(t), tc.tenant, tc.taskID, tc.id); err != nil {
				t.Fatalf("abandon %+v: %v", tc, err)
			}
		}
		if err := s.PutAttachmentChunk(ctx(t), "t1", task.ID, failed.ID, 2, []byte("still there")); err != nil {
			t.Fatalf("the upload was removed by another tenant's or task's abandon: %v", err)
		}
		if got, _, err := readAll(t, s, "t1", task.ID, kept.ID); err != nil || len(got) != models.AttachmentChunkSize+2 {
			t.Fatalf("abandoning a finished attachment touched it: %d bytes, %v", len(got), err)
		}
		if err := s.AbandonAttachment(ctx(t), "t1", task.ID, failed.ID); err != nil {
			t.Fatal(err)
		}
		wantIs(t, s.PutAttachmentChunk(ctx(t), "t1", task.ID, failed.ID, 3, []byte("x")), models.ErrNotFound)
		if n, err := s.SweepAttachmentUploads(ctx(t), -time.Hour, 100); err != nil || n != 0 {
			t.Fatalf("the sweep found %d unfinished uploads after the abandon (%v)", n, err)
		}
		if h.CountRecords != nil {
			if n := h.CountRecords(t, s, storekit.AttachmentChunkTable, map[string]any{"attachment_id": failed.ID}); n != 0 {
				t.Fatalf("%d chunks of the abandoned upload remain", n)
			}
			if n := h.CountRecords(t, s, storekit.AttachmentChunkTable, map[string]any{"attachment_id": kept.ID}); n != 2 {
				t.Fatalf("%d chunks of the finished attachment, want 2", n)
			}
		}
		if err := s.AbandonAttachment(ctx(t), "t1", task.ID, failed.ID); err != nil {
			t.Fatalf("a second abandon: %v", err)
		}
	})

	t.Run("TenantIsolation", func(t *testing.T) {
		s := h.open(t, Options{})
		task := openTask(t, s, "t1")
		other := openTask(t, s, "t1")
		att := mustUpload(t, s, task, ann, "mine.pdf", patterned(10))
		boss2 := queryActor("t2", "boss", true)
		for _, tc := range []struct{ tenant, taskID string }{{"t2", task.ID}, {"t1", other.ID}, {"t1", "../" + task.ID}} {
			if _, err := s.Attachment(ctx(t), tc.tenant, tc.taskID, att.ID); !errors.Is(err, models.ErrNotFound) {
				t.Fatalf("%v: read %v", tc, err)
			}
			if _, _, err := readAll(t, s, tc.tenant, tc.taskID, att.ID); !errors.Is(err, models.ErrNotFound) {
				t.Fatalf("%v: stream %v", tc, err)
			}
			if list, err := s.Attachments(ctx(t), tc.tenant, tc.taskID); err != nil || len(list) != 0 {
				t.Fatalf("%v: list %+v %v", tc, list, err)
			}
			if _, err := s.BeginAttachment(ctx(t), models.Attachment{Tenant: tc.tenant, TaskID: task.ID + "x", FileName: "a", UploadedBy: ann}); !errors.Is(err, models.ErrNotFound) {
				t.Fatalf("%v: begin on a missing task %v", tc, err)
			}
		}
		if _, err := s.DeleteAttachment(ctx(t), boss2, task.ID, att.ID); !errors.Is(err, models.ErrNotFound) {
			t.Fatalf("another tenant's manager deleted: %v", err)
		}
		// Another tenant's upload cannot take this one's chunks or finish it.
		if err := s.PutAttachmentChunk(ctx(t), "t2", task.ID, att.ID, 5, []byte("x")); !errors.Is(err, models.ErrNotFound) {
			t.Fatalf("put into another tenant's attachment: %v", err)
		}
	})

	t.Run("Delete", func(t *testing.T) {
		s := h.open(t, Options{})
		task := openTask(t, s, "t1")
		att := mustUpload(t, s, task, ann, "mine.pdf", patterned(models.AttachmentChunkSize+1))
		if _, err := s.DeleteAttachment(ctx(t), queryActor("t1", "bob", false), task.ID, att.ID); !errors.Is(err, models.ErrForbidden) {
			t.Fatalf("bob deleted ann's file: %v", err)
		}
		got, err := s.DeleteAttachment(ctx(t), queryActor("t1", "ann", false), task.ID, att.ID)
		if err != nil || got.ID != att.ID {
			t.Fatalf("ann deletes her file: %+v %v", got, err)
		}
		if _, err := s.Attachment(ctx(t), "t1", task.ID, att.ID); !errors.Is(err, models.ErrNotFound) {
			t.Fatalf("read after delete: %v", err)
		}
		if _, err := s.DeleteAttachment(ctx(t), queryActor("t1", "ann", false), task.ID, att.ID); !errors.Is(err, models.ErrNotFound) {
			t.Fatalf("second delete: %v", err)
		}
		if h.CountRecords != nil {
			if n := h.CountRecords(t, s, storekit.AttachmentChunkTable, map[string]any{"attachment_id": att.ID}); n != 0 {
				t.Fatalf("%d chunks remain", n)
			}
		}
		evs := mustEvents(t, s, "t1", task.ID)
		if last := evs[len(evs)-1]; last.Type != models.EventAttachmentDeleted || last.Actor == nil || last.Actor.ID != "ann" {
			t.Fatalf("last event %+v", last)
		}
	})

	t.Run("PurgeRemovesChunks", func(t *testing.T) {
		var shift atomic.Int64
		s := h.open(t, Options{Clock: func(now time.Time) time.Time { return now.Add(time.Duration(shift.Load())) }})
		task := openTask(t, s, "t1")
		keep := openTask(t, s, "t1")
		mustUpload(t, s, task, ann, "a.pdf", patterned(2*models.AttachmentChunkSize+1))
		fresh(t, s, task, ann)
		kept := mustUpload(t, s, keep, ann, "b.pdf", patterned(5))
		if err := h.Tamper(t, s, ForceCompleted, task.ID); err != nil {
			h.notApplicable(t, err.Error())
		}
		shift.Store(int64(48 * time.Hour))
		got, err := s.Purge(ctx(t), "t1", models.RetentionPolicy{TerminalAge: time.Hour}, nil)
		if err != nil || got.Tasks != 1 || got.Attachments != 2 || got.AttachmentChunks != 4 {
			t.Fatalf("purged %+v, %v; want 1 task, 2 attachments (one unfinished), 4 chunks", got, err)
		}
		if h.CountRecords != nil {
			if n := h.CountRecords(t, s, storekit.AttachmentChunkTable, map[string]any{"task_id": task.ID}); n != 0 {
				t.Fatalf("%d chunks of the purged task remain", n)
			}
		}
		if _, _, err := readAll(t, s, "t1", keep.ID, kept.ID); err != nil {
			t.Fatalf("the open task's attachment: %v", err)
		}
	})

	t.Run("Rekey", func(t *testing.T) {
		keys := ring(t, "old", "new")
		s := h.open(t, Options{Keys: parseRing(t, keys["old"])})
		task := openTask(t, s, "t1")
		body := patterned(5 * models.AttachmentChunkSize / 2)
		att := mustUpload(t, s, task, ann, "rekeyed.pdf", body)
		s = h.reopen(t, s, Options{Keys: parseRing(t, keys["new"], keys["old"])})
		_, resealed, _, unreadable := rekeyAll(t, s, 2, false)
		if len(unreadable) != 0 || resealed < 4 { // the file name and three chunks, at least
			t.Fatalf("resealed %d, unreadable %v", resealed, unreadable)
		}
		s = h.reopen(t, s, Options{Keys: parseRing(t, keys["new"])})
		got, _, err := readAll(t, s, "t1", task.ID, att.ID)
		if err != nil || !bytes.Equal(got, body) {
			t.Fatalf("read under the new key only: %d bytes, %v", len(got), err)
		}
		if read, err := s.Attachment(ctx(t), "t1", task.ID, att.ID); err != nil || read.FileName != "rekeyed.pdf" {
			t.Fatalf("%+v, %v", read, err)
		}
		for _, table := range []string{storekit.AttachmentTable, storekit.AttachmentChunkTable} {
			p, err := s.AuditSealed(ctx(t), table, "", 100)
			if err != nil || len(p.Unreadable) != 0 || p.ByKey["new"] == 0 || p.ByKey["old"] != 0 {
				t.Fatalf("%s audit after the rotation: %+v, %v", table, p, err)
			}
		}
	})

	t.Run("AuditFindsCorruption", func(t *testing.T) {
		s := h.open(t, Options{})
		task := openTask(t, s, "t1")
		good := mustUpload(t, s, task, ann, "good.pdf", patterned(models.AttachmentChunkSize+3))
		bad := mustUpload(t, s, task, ann, "bad.pdf", patterned(7))
		if err := h.Tamper(t, s, CorruptAttachmentHash, bad.ID); err != nil {
			h.notApplicable(t, err.Error())
		}
		p, err := s.AuditSealed(ctx(t), storekit.AttachmentTable, "", 100)
		if err != nil || len(p.Unreadable) != 1 || p.Unreadable[0] != bad.ID || p.Rows != 2 {
			t.Fatalf("audit %+v, %v; want %s unreadable, not %s", p, err, bad.ID, good.ID)
		}
	})

	t.Run("HeapStaysFlat", func(t *testing.T) {
		testAttachmentHeap(t, h)
	})
}

// fresh begins an upload and writes one chunk, leaving it unfinished.
func fresh(t *testing.T, s store.Store, task models.Task, who models.ParticipantRef) models.Attachment {
	t.Helper()
	att, err := s.BeginAttachment(ctx(t), models.Attachment{Tenant: task.Tenant, TaskID: task.ID, FileName: "unfinished.pdf", UploadedBy: who})
	if err != nil {
		t.Fatal(err)
	}
	if err := s.PutAttachmentChunk(ctx(t), task.Tenant, task.ID, att.ID, 0, []byte("partial")); err != nil {
		t.Fatal(err)
	}
	return att
}
