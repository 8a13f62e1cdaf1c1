package handlers

import (
	"testing"

	"usertasks/views/i18n"
)

func TestHumanSize(t *testing.T) {
	en, de := i18n.English(), i18n.German()
	for _, c := range []struct {
		n      int64
		en, de string
	}{{0, "0 B", "0 B"}, {1023, "1023 B", "1023 B"}, {1024, "1 KiB", "1 KiB"}, {1536, "1.5 KiB", "1,5 KiB"},
		{10 << 20, "10 MiB", "10 MiB"}, {1 << 30, "1 GiB", "1 GiB"}, {5 << 40, "5 TiB", "5 TiB"}, {1 << 50, "1024 TiB", "1024 TiB"}} {
		if got := humanSize(en, c.n); got != c.en {
			t.Errorf("humanSize(en, %d) = %q, want %q", c.n, got, c.en)
		}
		if got := humanSize(de, c.n); got != c.de {
			t.Errorf("humanSize(de, %d) = %q, want %q", c.n, got, c.de)
		}
	}
}
