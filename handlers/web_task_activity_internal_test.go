package handlers

import "testing"

func TestHumanSize(t *testing.T) {
	for _, c := range []struct {
		n    int64
		want string
	}{{0, "0 B"}, {1023, "1023 B"}, {1024, "1 KiB"}, {1536, "1.5 KiB"}, {10 << 20, "10 MiB"}, {1 << 30, "1 GiB"}, {5 << 40, "5 TiB"}, {1 << 50, "1024 TiB"}} {
		if got := humanSize(c.n); got != c.want {
			t.Errorf("humanSize(%d) = %q, want %q", c.n, got, c.want)
		}
	}
}
