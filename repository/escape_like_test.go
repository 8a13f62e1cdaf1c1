package repository

import (
	"testing"

	"usertasks/migrations"
)

func TestEscapeLike(t *testing.T) {
	cases := []struct {
		needle  string
		dialect migrations.Dialect
		want    string
	}{
		{"plain", migrations.SQLite, "plain"},
		{"100%", migrations.Postgres, "100!%"},
		{"a_b", migrations.MySQL, "a!_b"},
		{"wow!", migrations.SQLServer, "wow!!"},
		{"[x]", migrations.SQLServer, "![x]"},
		{"[x]", migrations.Oracle, "[x]"},
		{`back\slash`, migrations.MySQL, `back\slash`},
	}
	for _, c := range cases {
		if got := escapeLike(c.needle, c.dialect); got != c.want {
			t.Errorf("escapeLike(%q, %s) = %q, want %q", c.needle, c.dialect, got, c.want)
		}
	}
}
