package webhooksig_test

import (
	"testing"

	"usertasks/webhooksig"
)

// TestSignIsTheDocumentedHMAC pins the signature to RFC 4231's first HMAC-SHA256 test vector,
// which receivers compute with their own library.
func TestSignIsTheDocumentedHMAC(t *testing.T) {
	key := make([]byte, 20)
	for i := range key {
		key[i] = 0x0b
	}
	const want = "sha256=b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7"
	if got := webhooksig.Sign([]byte("Hi There"), key); got != want {
		t.Fatalf("Sign = %s, want %s", got, want)
	}
}
