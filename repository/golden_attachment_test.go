package repository

import (
	"crypto/sha256"
	"encoding/hex"
	"reflect"
	"testing"
	"time"

	"usertasks/models"
	"usertasks/storekit"
)

// goldenAttachment is a stored attachment of task t, finished unless unfinished is set, with
// its sealed rows: the attachment record and one chunk record per chunk of body.
func (g *goldenEnv) attachment(t models.Task, body []byte, unfinished bool) (models.Attachment, *attachmentRecord, []any) {
	att := models.Attachment{ID: models.NewID(), Tenant: t.Tenant, TaskID: t.ID, FileName: "invoice.pdf", UploadedBy: goldenUser("u1")}
	row, err := g.s.sealer().AttachmentRowOf(&att, goldenNow.Add(-time.Minute))
	if err != nil {
		panic(err)
	}
	var chunks []any
	for seq := 0; seq*models.AttachmentChunkSize < len(body); seq++ {
		part := body[seq*models.AttachmentChunkSize : min(len(body), (seq+1)*models.AttachmentChunkSize)]
		c, err := g.s.sealer().ChunkRowOf(&row, seq, part)
		if err != nil {
			panic(err)
		}
		chunks = append(chunks, &attachmentChunkRecord{c})
	}
	sum := sha256.Sum256(body)
	att.ContentType, att.Size, att.SHA256, att.Chunks = "application/pdf", int64(len(body)), hex.EncodeToString(sum[:]), len(chunks)
	if !unfinished {
		row.ContentType, row.SizeBytes, row.SHA256, row.Chunks, row.CreatedAt = &att.ContentType, att.Size, &att.SHA256, att.Chunks, &goldenNow
		att.CreatedAt = goldenNow
	}
	return att, &attachmentRecord{row}, chunks
}

// attachmentScenarios are the statements of attachments (attachment*.go): an upload's three
// short writes, the reads chunk by chunk, delete, the sweep, and a rotation and audit page.
func attachmentScenarios() []goldenScenario {
	two := make([]byte, models.AttachmentChunkSize+3)
	return []goldenScenario{
		{"begin-attachment", func(t *testing.T, g *goldenEnv) {
			task := g.task(goldenTaskOpts{CandidateUsers: []string{"u1"}})
			g.answer(fakeScript{Rows: g.stored(task)})
			_, err := g.s.BeginAttachment(g.ctx, models.Attachment{Tenant: "t1", TaskID: task.ID, FileName: "scan.png", UploadedBy: goldenUser("u1")})
			goldenOK(t, err)
		}},
		{"put-attachment-chunk", func(t *testing.T, g *goldenEnv) {
			task := g.task(goldenTaskOpts{})
			att, rec, _ := g.attachment(task, two, true)
			g.answer(fakeScript{Rows: goldenRows{storekit.AttachmentTable: {{rec}}}.rows})
			goldenOK(t, g.s.PutAttachmentChunk(g.ctx, "t1", task.ID, att.ID, 0, two[:models.AttachmentChunkSize]))
		}},
		{"finish-attachment", func(t *testing.T, g *goldenEnv) {
			task := g.task(goldenTaskOpts{CandidateUsers: []string{"u1"}})
			att, rec, chunks := g.attachment(task, two, true)
			after := task
			after.LastEventSeq++
			g.answer(fakeScript{
				Rows:  goldenRows{"user_tasks": {{g.record(after)}}, storekit.AttachmentTable: {{rec}}, storekit.AttachmentChunkTable: {chunks}}.rows,
				Count: func(string, int) int64 { return 3 },
			})
			_, err := g.s.FinishAttachment(g.ctx, att)
			goldenOK(t, err)
		}},
		{"attachments", func(t *testing.T, g *goldenEnv) {
			task := g.task(goldenTaskOpts{})
			_, rec, _ := g.attachment(task, two, false)
			g.answer(fakeScript{Rows: goldenRows{storekit.AttachmentTable: {{rec}}}.rows})
			list, err := g.s.Attachments(g.ctx, "t1", task.ID)
			goldenOK(t, err)
			if len(list) != 1 {
				t.Fatalf("listed %+v", list)
			}
		}},
		{"read-attachment", func(t *testing.T, g *goldenEnv) {
			task := g.task(goldenTaskOpts{})
			att, rec, chunks := g.attachment(task, two, false)
			g.answer(fakeScript{Rows: func(table string, nth int) []any {
				switch table {
				case storekit.AttachmentTable:
					return []any{rec}
				case storekit.AttachmentChunkTable:
					return []any{chunks[min(nth, len(chunks)-1)]}
				}
				return nil
			}})
			n := 0
			_, err := g.s.ReadAttachment(g.ctx, "t1", task.ID, att.ID, func(b []byte) error { n += len(b); return nil })
			goldenOK(t, err)
			if n != len(two) {
				t.Fatalf("read %d bytes", n)
			}
		}},
		{"delete-attachment", func(t *testing.T, g *goldenEnv) {
			task := g.task(goldenTaskOpts{})
			after := task
			after.LastEventSeq++
			att, rec, _ := g.attachment(task, two, false)
			g.answer(fakeScript{Rows: goldenRows{"user_tasks": {{g.record(after)}}, storekit.AttachmentTable: {{rec}}}.rows})
			boss := models.Actor{Tenant: "t1", Subject: goldenUser("boss"), Manager: true}
			_, err := g.s.DeleteAttachment(g.ctx, boss, task.ID, att.ID)
			goldenOK(t, err)
		}},
		{"abandon-attachment", func(t *testing.T, g *goldenEnv) {
			task := g.task(goldenTaskOpts{})
			g.answer(fakeScript{Count: func(string, int) int64 { return 1 }})
			goldenOK(t, g.s.AbandonAttachment(g.ctx, "t1", task.ID, "0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5d"))
		}},
		{"sweep-attachment-uploads", func(t *testing.T, g *goldenEnv) {
			task := g.task(goldenTaskOpts{})
			_, rec, _ := g.attachment(task, two, true)
			g.answer(fakeScript{Rows: goldenRows{storekit.AttachmentTable: {{rec}}}.rows})
			_, err := g.s.SweepAttachmentUploads(g.ctx, models.AttachmentUploadBound, 50)
			goldenOK(t, err)
		}},
		{"rekey-attachment-chunks", func(t *testing.T, g *goldenEnv) {
			task := g.task(goldenTaskOpts{})
			_, _, chunks := g.attachment(task, two, false)
			g.answer(fakeScript{Rows: goldenRows{storekit.AttachmentChunkTable: {chunks}}.rows})
			_, err := g.s.RekeyPage(g.ctx, storekit.AttachmentChunkTable, "", 500, false)
			goldenOK(t, err)
		}},
	}
}

func init() {
	for _, r := range []interface{ TableName() string }{attachmentRecord{}, attachmentChunkRecord{}} {
		fixtureTypes[r.TableName()] = reflect.TypeOf(r)
	}
}
