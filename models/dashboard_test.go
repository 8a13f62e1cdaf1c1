package models

import (
	"testing"
	"time"
)

func TestDurationBuckets(t *testing.T) {
	for _, tc := range []struct {
		d    time.Duration
		want int
	}{
		{0, 0}, {time.Minute, 0}, {time.Minute + 1, 1}, {time.Hour, 4}, {-time.Hour, 0},
		{30 * 24 * time.Hour, len(DurationBuckets) - 1}, {31 * 24 * time.Hour, len(DurationBuckets)},
	} {
		if got := DurationBucket(tc.d); got != tc.want {
			t.Errorf("DurationBucket(%s) = %d, want %d", tc.d, got, tc.want)
		}
	}
}

func TestBucketQuantile(t *testing.T) {
	if _, ok := BucketQuantile(make([]int64, 3), 0.5); ok {
		t.Fatalf("a quantile of nothing")
	}
	counts := make([]int64, len(DurationBuckets)+1)
	counts[0], counts[2], counts[len(DurationBuckets)] = 5, 4, 1
	for _, tc := range []struct {
		q    float64
		want time.Duration
	}{
		{0.5, DurationBuckets[0]}, {0.51, DurationBuckets[2]}, {0.9, DurationBuckets[2]},
		{1, DurationBuckets[len(DurationBuckets)-1]},
	} {
		if got, ok := BucketQuantile(counts, tc.q); !ok || got != tc.want {
			t.Errorf("BucketQuantile(%v) = %s, want %s", tc.q, got, tc.want)
		}
	}
}
