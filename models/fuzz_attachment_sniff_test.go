package models

import (
	"bytes"
	"strings"
	"testing"
)

// FuzzSniffAttachment: a file sniffed whole and sniffed in pieces of any size gets the same
// answer, and nothing that holds NUL or invalid UTF-8 is accepted as text.
func FuzzSniffAttachment(f *testing.F) {
	f.Add([]byte("a,b\nc,d\n"), 3)
	f.Add([]byte("Grüße\n"), 1)
	f.Add([]byte("%PDF-1.4"), 2)
	f.Fuzz(func(t *testing.T, b []byte, n int) {
		if n < 1 || n > len(b)+1 {
			n = len(b) + 1
		}
		whole, errWhole := SniffAttachment(bytes.NewReader(b))
		pieces, errPieces := sniffInPieces(b, n)
		if whole != pieces || (errWhole == nil) != (errPieces == nil) {
			t.Fatalf("whole %q %v, pieces of %d %q %v", whole, errWhole, n, pieces, errPieces)
		}
		if errWhole == nil && isText(whole) && (bytes.IndexByte(b, 0) >= 0 || !utf8Valid(b)) {
			t.Fatalf("%q accepted as text", b)
		}
	})
}

func utf8Valid(b []byte) bool { return strings.ToValidUTF8(string(b), "\uFFFD") == string(b) }
