package docstore

import (
	"context"
	"log/slog"
	"time"
)

// strayEvery is how often RunRelay sweeps stray open-task places (SweepStrayPlaces) and old
// version claims (SweepClaims). The sweep at start that leaves places in flight (creations a
// crash may have cut short just before the restart) is followed by one more once their grace
// is over, so what a crash left behind is freed within ClaimGrace of the restart.
const strayEvery = 10 * time.Minute

// relayBatch bounds the aggregates one RelayPass of RunRelay visits.
const relayBatch = 500

// RunRelay runs RelayPass every interval until ctx ends: each write relays its own entries at
// once, so this only finds those a writer left behind when it died between its write and its
// relay (or lost the relay to a failing server). A full batch is followed by the next at once.
// Failures are logged and retried at the next tick; nothing is lost meanwhile, because the
// entries stay in their aggregates and the merged reads show them.
func (s *Store) RunRelay(ctx context.Context, interval time.Duration, log *slog.Logger) {
	t := time.NewTicker(interval)
	defer t.Stop()
	var sweepAt time.Time // the first sweep at start
	for sweeps := 0; ; {
		if !time.Now().Before(sweepAt) {
			// The places a dead creation left behind.
			sweeps++
			sweepAt = time.Now().Add(strayEvery)
			n, inFlight, err := s.sweepStrayPlaces(ctx)
			switch {
			case err != nil && ctx.Err() == nil:
				log.Warn("document store: sweeping stray open-task places failed; retrying later", "error", err)
			case n > 0:
				log.Info("document store: freed open-task places a dead creation left behind", "places", n)
			}
			if sweeps == 1 && inFlight > 0 {
				sweepAt = time.Now().Add(s.cfg.ClaimGrace)
			}
			if n, err := s.SweepClaims(ctx); err != nil && ctx.Err() == nil {
				log.Warn("document store: sweeping old version claims failed; retrying later", "error", err)
			} else if n > 0 {
				log.Debug("document store: deleted old version claims", "claims", n)
			}
		}
		n, err := s.RelayPass(ctx, relayBatch)
		switch {
		case ctx.Err() != nil:
			return
		case err != nil:
			log.Warn("document store relay pass failed; retrying at the next tick", "error", err)
		case n > 0:
			log.Info("document store relay moved entries a write had left behind", "aggregates", n)
		}
		if n == relayBatch && err == nil {
			continue
		}
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}
