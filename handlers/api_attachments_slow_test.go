package handlers_test

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"usertasks/handlers/handlerstest"
	"usertasks/models"
)

// slowTimeout is the test server's read and write timeout: short, so the cases take seconds.
const slowTimeout = 400 * time.Millisecond

// slowUpload posts body to the task's attachments over a connection of its own: the request's
// head at once, then the body in pieces of piece bytes, pause before each; from stallAfter bytes
// on (when ≥ 0) it sends nothing more and only waits for the answer. It returns the status (0
// when the connection ended without an answer), the answer's body and how long it all took.
func slowUpload(t *testing.T, env *handlerstest.Env, token, taskID, contentType string, body []byte, piece int, pause time.Duration, stallAfter int) (int, string, time.Duration) {
	t.Helper()
	u, err := url.Parse(env.URL)
	if err != nil {
		t.Fatal(err)
	}
	conn, err := net.Dial("tcp", u.Host)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	start := time.Now()
	head := fmt.Sprintf("POST %s HTTP/1.1\r\nHost: %s\r\nAuthorization: Bearer %s\r\nContent-Type: %s\r\nContent-Length: %d\r\nConnection: close\r\n\r\n",
		handlerstest.TaskPath(taskID, "attachments"), u.Host, token, contentType, len(body))
	if _, err := io.WriteString(conn, head); err != nil {
		t.Fatal(err)
	}
	go func() {
		for off := 0; off < len(body); off += piece {
			if stallAfter >= 0 && off >= stallAfter {
				return
			}
			time.Sleep(pause)
			if _, err := conn.Write(body[off:min(len(body), off+piece)]); err != nil {
				return
			}
		}
	}()
	_ = conn.SetReadDeadline(time.Now().Add(30 * time.Second))
	res, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil {
		return 0, err.Error(), time.Since(start)
	}
	defer res.Body.Close()
	answer, _ := io.ReadAll(res.Body)
	return res.StatusCode, string(answer), time.Since(start)
}

// TestAttachmentSlowUpload: the server's read timeout applies to each 1 MiB chunk of an upload,
// not to the whole file, and its write timeout to the answer from the moment the file was
// read: a file whose chunks each arrive in time is stored however long the whole takes, and
// its 201 arrives. A body that stalls longer than the read timeout is refused (400) with
// nothing stored — no attachment, no unfinished upload, no chunk.
func TestAttachmentSlowUpload(t *testing.T) {
	env := handlerstest.SQLite(t, &handlerstest.Options{ServerReadTimeout: slowTimeout, ServerWriteTimeout: slowTimeout})
	ann := env.Token(t, handlerstest.Worker("acme", "ann"))
	task := env.Task(t, handlerstest.TaskOpts{Candidates: []string{"ann"}})
	nothingLeft := func(t *testing.T, finished int) {
		t.Helper()
		if n := env.Count(t, "SELECT COUNT(*) FROM user_task_attachments WHERE created_at IS NOT NULL"); n != finished {
			t.Fatalf("%d attachments stored, want %d", n, finished)
		}
		if n := env.Count(t, "SELECT COUNT(*) FROM user_task_attachments WHERE created_at IS NULL"); n != 0 {
			t.Fatalf("%d unfinished uploads left", n)
		}
		if n := env.Count(t, "SELECT COUNT(*) FROM user_task_attachment_chunks WHERE attachment_id NOT IN (SELECT id FROM user_task_attachments WHERE created_at IS NOT NULL)"); n != 0 {
			t.Fatalf("%d chunks of no attachment left", n)
		}
	}

	t.Run("OKChunksInTime", func(t *testing.T) {
		// 6 MiB in pieces of 128 KiB, 20 ms apart: each MiB in about 160 ms, well within the
		// timeout; the whole in about a second, more than twice the timeout.
		size := 6*models.AttachmentChunkSize + 1000
		body, ct := multipartBody(t, filePart{"file", "slow.pdf", "application/pdf", pdfBytes(size), ""})
		status, answer, took := slowUpload(t, env, ann, task.ID, ct, body, 128<<10, 20*time.Millisecond, -1)
		if status != http.StatusCreated {
			t.Fatalf("status %d %s after %s, want 201", status, answer, took.Round(time.Millisecond))
		}
		if took < 2*slowTimeout {
			t.Fatalf("the upload took %s, not over twice the timeout: the case proves nothing", took.Round(time.Millisecond))
		}
		var att attachmentWire
		if err := json.Unmarshal([]byte(answer), &att); err != nil || att.Size != int64(size) {
			t.Fatalf("answer %s (%v), want the attachment of %d bytes", answer, err, size)
		}
		nothingLeft(t, 1)
	})

	for _, tc := range []struct {
		name       string
		stallAfter int
	}{
		// Within the first chunk: nothing was begun.
		{"ErrStallInTheFirstChunk", 300 << 10},
		// After a chunk was stored: the begun upload and its chunks are removed.
		{"ErrStallAfterAChunk", models.AttachmentChunkSize + 300<<10},
	} {
		t.Run(tc.name, func(t *testing.T) {
			body, ct := multipartBody(t, filePart{"file", "stalled.pdf", "application/pdf", pdfBytes(3 * models.AttachmentChunkSize), ""})
			status, answer, took := slowUpload(t, env, ann, task.ID, ct, body, 64<<10, time.Millisecond, tc.stallAfter)
			if status != http.StatusBadRequest || !strings.Contains(answer, "malformed-request") {
				t.Fatalf("status %d %s, want 400 malformed-request", status, answer)
			}
			if took > slowTimeout+10*time.Second {
				t.Fatalf("the refusal came after %s", took.Round(time.Millisecond))
			}
			nothingLeft(t, 1)
		})
	}
}
