package repository

import (
	"strings"
	"testing"
)

func TestCheckPostgresVersion(t *testing.T) {
	for _, ok := range []int{140000, 140011, 150008, 170002} {
		if err := checkPostgresVersion(ok); err != nil {
			t.Errorf("%d refused: %v", ok, err)
		}
	}
	err := checkPostgresVersion(130016)
	if err == nil || !strings.Contains(err.Error(), "PostgreSQL 14 or later") || !strings.Contains(err.Error(), "13.16") {
		t.Fatalf("13.16: %v", err)
	}
}
