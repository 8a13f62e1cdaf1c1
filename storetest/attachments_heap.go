package storetest

import (
	"crypto/sha256"
	"encoding/hex"
	"io"
	"runtime"
	"testing"

	"usertasks/models"
)

// heapBound is the most live heap a 10 MiB upload or download may add: a few chunks and their
// sealed envelopes, well under the file.
const heapBound = 6 << 20

// liveHeap is the heap in use after a collection: what is still reachable, not garbage.
func liveHeap() uint64 {
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.HeapAlloc
}

// patternReader yields n patterned bytes without holding them.
type patternReader struct{ off, n int }

func (r *patternReader) Read(p []byte) (int, error) {
	if r.off >= r.n {
		return 0, io.EOF
	}
	k := min(len(p), r.n-r.off)
	for i := range k {
		j := r.off + i
		p[i] = byte(j*7 + j/251)
	}
	r.off += k
	return k, nil
}

// testAttachmentHeap uploads and reads back models.DefaultAttachmentMaxSize bytes while the live
// heap is sampled after every chunk: it must stay flat (heapBound above the start), so neither
// way holds the whole file.
func testAttachmentHeap(t *testing.T, h Harness) {
	s := h.open(t, Options{})
	task := CreateTask(t, s, TaskOpts{Tenant: "t1", CandidateUsers: []string{"ann"}})
	ann := User("t1", "ann")
	size := models.DefaultAttachmentMaxSize
	base := liveHeap()
	var peak uint64
	sample := func() {
		if h := liveHeap(); h > peak {
			peak = h
		}
	}
	att, err := s.BeginAttachment(ctx(t), models.Attachment{Tenant: "t1", TaskID: task.ID, FileName: "big.pdf", UploadedBy: ann})
	if err != nil {
		t.Fatal(err)
	}
	r := &patternReader{n: size}
	sum := sha256.New()
	buf := make([]byte, models.AttachmentChunkSize)
	for {
		n, _ := io.ReadFull(r, buf)
		if n == 0 {
			break
		}
		sum.Write(buf[:n])
		if err := s.PutAttachmentChunk(ctx(t), "t1", task.ID, att.ID, att.Chunks, buf[:n]); err != nil {
			t.Fatal(err)
		}
		att.Chunks++
		att.Size += int64(n)
		sample()
	}
	att.ContentType, att.SHA256 = "application/pdf", hex.EncodeToString(sum.Sum(nil))
	if _, err := s.FinishAttachment(ctx(t), att); err != nil {
		t.Fatal(err)
	}
	up := peak
	peak = 0
	back := sha256.New()
	var read int
	if _, err := s.ReadAttachment(ctx(t), "t1", task.ID, att.ID, func(chunk []byte) error {
		back.Write(chunk)
		read += len(chunk)
		sample()
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	if read != size || hex.EncodeToString(back.Sum(nil)) != att.SHA256 {
		t.Fatalf("read back %d bytes, hash equal %v", read, hex.EncodeToString(back.Sum(nil)) == att.SHA256)
	}
	for name, p := range map[string]uint64{"upload": up, "download": peak} {
		if p > base && p-base > heapBound {
			t.Errorf("%s: live heap grew by %d bytes for a %d-byte file (bound %d)", name, p-base, size, heapBound)
		}
		t.Logf("%s: live heap peak %+d bytes over the start", name, int64(p)-int64(base))
	}
}
