package models

import (
	"regexp"
	"strconv"
	"testing"
	"time"
)

var uuidV7 = regexp.MustCompile(`^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$`)

func TestNewID(t *testing.T) {
	t.Run("IsAUUIDv7", func(t *testing.T) {
		if id := NewID(); !uuidV7.MatchString(id) {
			t.Fatalf("NewID() = %q, not a UUIDv7", id)
		}
	})
	t.Run("CarriesTheTime", func(t *testing.T) {
		before := time.Now().UnixMilli()
		id := NewID()
		after := time.Now().UnixMilli()
		ms, err := strconv.ParseInt(id[0:8]+id[9:13], 16, 64)
		if err != nil {
			t.Fatal(err)
		}
		if ms < before || ms > after+1 { // +1: the counter may carry into the next millisecond
			t.Fatalf("id time %d ms, want within [%d, %d]", ms, before, after)
		}
	})
	t.Run("SortsInMintingOrder", func(t *testing.T) {
		prev := NewID()
		seen := map[string]bool{prev: true}
		for range 20000 { // many within one millisecond: the counter keeps them ordered
			id := NewID()
			if id <= prev || seen[id] {
				t.Fatalf("NewID() = %s after %s: not strictly increasing", id, prev)
			}
			seen[id], prev = true, id
		}
	})
}
