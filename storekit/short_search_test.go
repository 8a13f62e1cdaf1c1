package storekit

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// listReader serves rows of an in-memory list in order, as a store's keyset read does, and
// counts the rows it hands out.
func listReader(rows []SearchRow, served *int) RowReader {
	return func(after *SortValue, afterID string, n int) ([]SearchRow, error) {
		start := 0
		if after != nil {
			start = slices.IndexFunc(rows, func(r SearchRow) bool { return r.ID == afterID }) + 1
			if start == 0 || rows[start-1].Value != *after {
				return nil, fmt.Errorf("cursor %s not in the list", afterID)
			}
		}
		end := min(start+n, len(rows))
		*served += end - start
		return rows[start:end], nil
	}
}

// TestShortSearchPagesYieldEveryMatchInOrder: whatever the window and limit, following Next
// lists exactly the matches of the list in its order; a page short of its limit with a next
// page says Limited, no page examines more than window rows (+1 to see the list continue), and
// the first page's total counts the first window's matches.
func TestShortSearchPagesYieldEveryMatchInOrder(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for trial := range 300 {
		size := rng.IntN(60)
		rows := make([]SearchRow, size)
		for i := range rows {
			rows[i] = SearchRow{ID: fmt.Sprintf("id-%03d", i), Value: SortValue{Int: i}, Text: string("abcab"[rng.IntN(5)]) + string("xyz"[rng.IntN(3)])}
		}
		needle := []string{"a", "bx", "z", "q"}[rng.IntN(4)]
		window, limit, cap, chunk := 1+rng.IntN(12), 1+rng.IntN(5), 1+rng.IntN(20), rng.IntN(4)
		var want []string
		firstWindow := 0
		for i, r := range rows {
			if strings.Contains(r.Text, needle) {
				want = append(want, r.ID)
				if i < window {
					firstWindow++
				}
			}
		}
		var got []string
		var after *SortValue
		afterID := ""
		for page := 0; ; page++ {
			if page > 200 {
				t.Fatalf("trial %d: no end", trial)
			}
			served := 0
			p, err := ShortSearch(ShortSearchQuery{Needle: needle, Window: window, Chunk: chunk, Limit: limit, Cap: cap,
				After: after, AfterID: afterID, Count: page == 0}, listReader(rows, &served))
			if err != nil {
				t.Fatalf("trial %d: %v", trial, err)
			}
			if len(p.IDs) > limit {
				t.Fatalf("trial %d: page of %d, limit %d", trial, len(p.IDs), limit)
			}
			if served > window+1 {
				t.Fatalf("trial %d: %d rows read, window %d", trial, served, window)
			}
			if p.Limited != (p.Next != nil && len(p.IDs) < limit) {
				t.Fatalf("trial %d: limited %v with %d of %d and next %v", trial, p.Limited, len(p.IDs), limit, p.Next)
			}
			if page == 0 {
				wantTotal, capped := min(firstWindow, cap), size > window || firstWindow > cap
				if p.Total != wantTotal || p.TotalCapped != capped {
					t.Fatalf("trial %d: total %d capped %v, want %d %v (size %d window %d)", trial, p.Total, p.TotalCapped, wantTotal, capped, size, window)
				}
			}
			got = append(got, p.IDs...)
			if p.Next == nil {
				break
			}
			after, afterID = &p.Next.Value, p.Next.ID
		}
		if !slices.Equal(got, want) {
			t.Fatalf("trial %d (window %d limit %d needle %q): got %v, want %v", trial, window, limit, needle, got, want)
		}
	}
}

func TestShortNeedle(t *testing.T) {
	for needle, want := range map[string]bool{"": false, "a": true, "ab": true, "abc": false, "ß": true, "東京": true, "東京の": false,
		"🚀": true, "👍🏽": true, "e\u0301": true} {
		if ShortNeedle(needle) != want {
			t.Errorf("ShortNeedle(%q) = %v", needle, !want)
		}
	}
}
