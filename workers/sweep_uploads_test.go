package workers_test

import (
	"testing"
	"time"

	"usertasks/models"
	"usertasks/testfactory"
	"usertasks/workers"
)

// The due sweep removes an upload left unfinished past models.AttachmentUploadBound, and keeps
// a younger one, once per UploadSweepEvery per process.
func TestSweepRemovesUnfinishedUploads(t *testing.T) {
	wkProviders(t, func(t *testing.T, db wkDB) {
		clock := &testfactory.Clock{}
		s := db.open(t, clock)
		task := wkProject(t, s, wkTaskOpts{})
		ann := models.ParticipantRef{Tenant: "t1", Provider: models.DefaultProvider, Type: models.UserParticipant, ID: "ann"}
		begin := func() models.Attachment {
			att, err := s.BeginAttachment(t.Context(), models.Attachment{Tenant: task.Tenant, TaskID: task.ID, FileName: "scan.pdf", UploadedBy: ann})
			if err != nil {
				t.Fatal(err)
			}
			if err := s.PutAttachmentChunk(t.Context(), task.Tenant, task.ID, att.ID, 0, []byte("%PDF-")); err != nil {
				t.Fatal(err)
			}
			return att
		}
		old := begin()
		clock.Advance(models.AttachmentUploadBound + time.Minute)
		young := begin()
		log, _ := wkLogger(t)
		sweeper := workers.NewDueSweeper(&wkNode{Store: s}, workers.SweepOptions{Logger: log})
		res, err := sweeper.RunOnce(t.Context())
		if err != nil || res.SweptUploads != 1 {
			t.Fatalf("first sweep removed %d uploads (%v), want 1", res.SweptUploads, err)
		}
		if err := s.PutAttachmentChunk(t.Context(), task.Tenant, task.ID, old.ID, 1, []byte("x")); err == nil {
			t.Fatal("the swept upload still takes chunks")
		}
		if err := s.PutAttachmentChunk(t.Context(), task.Tenant, task.ID, young.ID, 1, []byte("x")); err != nil {
			t.Fatalf("the young upload: %v", err)
		}
		clock.Advance(models.AttachmentUploadBound + time.Minute)
		if res, err := sweeper.RunOnce(t.Context()); err != nil || res.SweptUploads != 0 {
			t.Fatalf("second sweep within UploadSweepEvery removed %d (%v)", res.SweptUploads, err)
		}
	})
}
