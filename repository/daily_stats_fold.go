package repository

import (
	"context"
	"fmt"
	"time"

	"gorm.io/gorm"

	"usertasks/storekit"
)

// The rollup's stripes (migration 00012) serve today's writers; once a day is over nobody
// writes it again, yet its stripes would make every 30-day dashboard read sum up to 16 rows per
// counter. FoldDailyStats moves the stripes of days that ended over FoldDailyStatsAfter ago
// into stripe 0, so a dashboard reads about one row per counter for all but the last days.
// Folding changes no sum: a counter's stripes are deleted and added to its stripe 0 in one
// transaction. No change writes a closed day (a write's transaction lasts seconds), so the
// values read are final; two folders at once (a lapsed lease) are kept apart by the DELETE,
// which must remove exactly the stripes read or the transaction runs again on fresh rows.

// FoldDailyStatsAfter is how long after a day ends its stripes are folded: a change whose
// transaction read the clock before midnight commits within seconds, so a day is long closed.
const FoldDailyStatsAfter = 24 * time.Hour

// foldWindowDays is how many closed days one pass looks at: a node that did not fold for
// longer leaves the older stripes in place (still summed correctly, only read more slowly).
const foldWindowDays = 7

// foldBatch bounds the stripe rows one transaction folds.
const foldBatch = 500

// FoldDailyStats folds the stripes of the closed days of the last week into stripe 0 and
// returns how many stripe rows it folded.
func (s *Store) FoldDailyStats(ctx context.Context) (int, error) {
	total := 0
	for {
		n := 0
		err := s.inWrite(ctx, func(tx *gorm.DB, now time.Time) error {
			var err error
			n, err = s.foldDailyStats(tx, now)
			return err
		})
		total += n
		if err != nil || n < foldBatch {
			return total, err
		}
	}
}

// counterKey names one counter of the rollup, all its stripes.
type counterKey struct {
	tenant, day, workflow, metric string
	bucket                        int
}

func (s *Store) foldDailyStats(tx *gorm.DB, now time.Time) (int, error) {
	last := storekit.StatDay(now.Add(-FoldDailyStatsAfter).AddDate(0, 0, -1)) // the last day folded
	first := storekit.StatDay(now.Add(-FoldDailyStatsAfter).AddDate(0, 0, -foldWindowDays))
	var rows []dailyStatRecord
	err := tx.Where("stat_day >= ? AND stat_day <= ? AND stripe > 0", first, last).
		Order("tenant_id, stat_day, workflow_definition_id, metric, bucket, stripe").Limit(foldBatch).Find(&rows).Error
	if err != nil {
		return 0, translate(err)
	}
	type counter struct {
		rec     dailyStatRecord
		sum     int64
		stripes []int // only the stripes read above: a batch may end inside a counter's stripes
	}
	var order []counterKey
	sums := map[counterKey]*counter{}
	for _, r := range rows {
		key := counterKey{r.TenantID, r.StatDay, r.WorkflowDefinitionID, r.Metric, r.Bucket}
		c, ok := sums[key]
		if !ok {
			c = &counter{rec: r}
			sums[key] = c
			order = append(order, key)
		}
		c.sum += r.EventCount
		c.stripes = append(c.stripes, r.Stripe)
	}
	for _, key := range order {
		c := sums[key]
		where := func() *gorm.DB {
			return tx.Model(&dailyStatRecord{}).Where("tenant_id = ? AND stat_day = ? AND workflow_definition_id = ? AND metric = ? AND bucket = ?",
				c.rec.TenantID, c.rec.StatDay, c.rec.WorkflowDefinitionID, c.rec.Metric, c.rec.Bucket)
		}
		del := where().Where("stripe IN ?", c.stripes).Delete(&dailyStatRecord{})
		if del.Error != nil {
			return 0, translate(del.Error)
		}
		if del.RowsAffected != int64(len(c.stripes)) {
			return 0, fmt.Errorf("%w: daily counter folded concurrently", errRetry)
		}
		res := where().Where("stripe = 0").
			Updates(map[string]any{"event_count": gorm.Expr("event_count + ?", c.sum), "updated_at": now})
		if res.Error != nil {
			return 0, translate(res.Error)
		}
		if res.RowsAffected == 0 {
			rec := c.rec
			rec.Stripe, rec.EventCount, rec.UpdatedAt = 0, c.sum, now
			if err := tx.Create(&rec).Error; err != nil {
				return 0, translate(err)
			}
		}
	}
	return len(rows), nil
}
