package main

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"strings"
	"testing"

	"usertasks/keyring"
	"usertasks/models"
	"usertasks/testfactory"
)

// `web rekey` reseals attachment names and chunks, and `web audit` checks every chunk opens
// and every file matches its SHA-256 (exit 3 when one does not).
func TestRekeyAndAuditCoverAttachments(t *testing.T) {
	specs := map[string]string{}
	for _, kid := range []string{"old", "new"} {
		spec, err := keyring.Generate(kid)
		if err != nil {
			t.Fatal(err)
		}
		specs[kid] = spec
	}
	old, err := keyring.Parse(specs["old"])
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	url := testfactory.Database(t, testfactory.SQLite)
	s := testfactory.OpenSQL(t, url, &testfactory.StoreOpts{Keys: old})
	task := testfactory.Task(ctx, t, s, &testfactory.TaskOpts{Candidates: []string{"ann"}})
	att, err := s.BeginAttachment(ctx, models.Attachment{Tenant: task.Tenant, TaskID: task.ID, FileName: "secret-name.pdf", UploadedBy: testfactory.User(task.Tenant, "ann")})
	if err != nil {
		t.Fatal(err)
	}
	body := bytes.Repeat([]byte("%PDF-secret-body "), models.AttachmentChunkSize/8)
	sum := sha256.Sum256(body)
	for off := 0; off < len(body); off += models.AttachmentChunkSize {
		if err := s.PutAttachmentChunk(ctx, task.Tenant, task.ID, att.ID, att.Chunks, body[off:min(len(body), off+models.AttachmentChunkSize)]); err != nil {
			t.Fatal(err)
		}
		att.Chunks++
	}
	att.ContentType, att.Size, att.SHA256 = models.TypePDF, int64(len(body)), hex.EncodeToString(sum[:])
	if _, err := s.FinishAttachment(ctx, att); err != nil {
		t.Fatal(err)
	}
	db, err := s.DB()
	if err != nil {
		t.Fatal(err)
	}

	tool := func(cmd, keys string, args ...string) (int, string) {
		var out, errOut bytes.Buffer
		code := run(ctx, append([]string{cmd}, args...), env(map[string]string{"USERTASKS_DATABASE_URL": url, "USERTASKS_ENCRYPTION_KEYS": keys}), &out, &errOut)
		return code, out.String() + errOut.String()
	}
	code, out := tool("rekey", specs["new"]+","+specs["old"])
	if code != 0 || !strings.Contains(out, `every sealed value is under key "new"`) || !strings.Contains(out, "user_task_attachment_chunks") {
		t.Fatalf("rekey: exit %d\n%s", code, out)
	}
	if code, out := tool("audit", specs["new"]); code != 0 || !strings.Contains(out, "clean: no findings") {
		t.Fatalf("audit under the new key only: exit %d\n%s", code, out)
	}
	if _, err := db.Exec("UPDATE user_task_attachments SET sha256 = ? WHERE id = ?", strings.Repeat("0", 64), att.ID); err != nil {
		t.Fatal(err)
	}
	code, out = tool("audit", specs["new"])
	if code != 3 || !strings.Contains(out, "user_task_attachments:"+att.ID[:16]) {
		t.Fatalf("audit of a file whose hash differs: exit %d\n%s", code, out)
	}
	if strings.Contains(out, "secret-name") || strings.Contains(out, "secret-body") {
		t.Fatalf("the report shows protected content:\n%s", out)
	}
}
