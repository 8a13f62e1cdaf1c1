package keyring

import (
	"bytes"
	"encoding/base64"
	"errors"
	"strings"
	"testing"
)

func TestSubkey(t *testing.T) {
	r, specs := mustRing(t, "k1", "k0")
	a, err := r.Subkey("k1", "purpose a v1", 32)
	if err != nil || len(a) != 32 {
		t.Fatalf("subkey %x, %v", a, err)
	}
	t.Run("Stable", func(t *testing.T) {
		again, _ := Parse(strings.Join(specs, ","))
		b, err := again.Subkey("k1", "purpose a v1", 32)
		if err != nil || !bytes.Equal(a, b) {
			t.Fatalf("a second ring from the same keys derives %x, want %x (%v)", b, a, err)
		}
	})
	t.Run("IndependentOfPurposeKeyAndRawKey", func(t *testing.T) {
		other, _ := r.Subkey("k1", "purpose b v1", 32)
		older, _ := r.Subkey("k0", "purpose a v1", 32)
		_, encoded, _ := strings.Cut(specs[0], ":")
		raw, _ := base64.StdEncoding.DecodeString(encoded)
		if bytes.Equal(a, other) || bytes.Equal(a, older) || bytes.Equal(a, raw) {
			t.Fatal("a subkey equals another purpose's, another key's, or the raw key")
		}
	})
	t.Run("ErrUnknownKey", func(t *testing.T) {
		if _, err := r.Subkey("k9", "purpose a v1", 32); !errors.Is(err, ErrUnknownKey) {
			t.Fatalf("err %v", err)
		}
	})
	t.Run("NoPurpose", func(t *testing.T) {
		if _, err := r.Subkey("k1", "", 32); err == nil {
			t.Fatal("derived a key for no purpose")
		}
	})
}
