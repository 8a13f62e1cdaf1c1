package keyring

import (
	"errors"
	"strings"
	"testing"
)

func mustRing(t *testing.T, kids ...string) (*Keyring, []string) {
	t.Helper()
	var specs []string
	for _, kid := range kids {
		s, err := Generate(kid)
		if err != nil {
			t.Fatal(err)
		}
		specs = append(specs, s)
	}
	r, err := Parse(strings.Join(specs, ","))
	if err != nil {
		t.Fatal(err)
	}
	return r, specs
}

func TestSealOpen(t *testing.T) {
	r, specs := mustRing(t, "k1", "k0")
	env, err := r.Seal([]byte("secret instructions"), []byte("task-1/instructions"))
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(env, "secret") || !strings.HasPrefix(env, "v1:k1:") {
		t.Fatalf("envelope %q leaks plaintext or has no key id", env)
	}
	t.Run("OK", func(t *testing.T) {
		got, err := r.Open(env, []byte("task-1/instructions"))
		if err != nil || string(got) != "secret instructions" {
			t.Fatalf("got %q, %v", got, err)
		}
	})
	t.Run("ErrUndecodableOtherPlace", func(t *testing.T) {
		if _, err := r.Open(env, []byte("task-2/instructions")); !errors.Is(err, ErrUndecodable) {
			t.Fatalf("got %v, want ErrUndecodable", err)
		}
	})
	t.Run("ErrUndecodableTampered", func(t *testing.T) {
		b := []byte(env)
		b[len(b)-3] ^= 1
		if _, err := r.Open(string(b), []byte("task-1/instructions")); !errors.Is(err, ErrUndecodable) {
			t.Fatalf("got %v, want ErrUndecodable", err)
		}
	})
	t.Run("RotationOldKeyStillOpens", func(t *testing.T) {
		old, err := Parse(specs[1])
		if err != nil {
			t.Fatal(err)
		}
		legacy, _ := old.Seal([]byte("v"), nil)
		got, err := r.Open(legacy, nil)
		if err != nil || string(got) != "v" {
			t.Fatalf("got %q, %v", got, err)
		}
		if kid, _ := KeyID(legacy); kid != "k0" {
			t.Fatalf("key id %q, want k0", kid)
		}
	})
	t.Run("ErrUndecodableUnknownKey", func(t *testing.T) {
		other, _ := mustRing(t, "zz")
		foreign, _ := other.Seal([]byte("v"), nil)
		if _, err := r.Open(foreign, nil); !errors.Is(err, ErrUndecodable) {
			t.Fatalf("got %v", err)
		}
	})
}

func TestParseRefusesBadSpecs(t *testing.T) {
	for _, spec := range []string{"", "nokey", "k:short", "k:!!!", "k1:" + strings.Repeat("A", 44) + ",k1:" + strings.Repeat("A", 44)} {
		if _, err := Parse(spec); err == nil {
			t.Errorf("Parse(%q) accepted a bad spec", spec)
		}
	}
}
