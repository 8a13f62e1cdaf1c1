package storekit

import (
	"time"

	"usertasks/models"
)

// NextLease is the lease owner takes for ttl at now (the database's) of a lease stored as cur,
// nil when it was never taken: the first generation, or the next once cur has expired. A
// lease another holds live is models.ErrLeaseLost.
func (c Codec) NextLease(cur *LeaseRow, owner string, now time.Time, ttl time.Duration) (models.Lease, error) {
	generation := int64(1)
	if cur != nil {
		if c.Time(cur.LeaseExpiresAt).After(now) {
			return models.Lease{}, models.ErrLeaseLost
		}
		generation = cur.LeaseGeneration + 1
	}
	return models.Lease{Owner: owner, Token: models.NewID(), Generation: generation, ExpiresAt: now.Add(ttl)}, nil
}

// LeaseRow encodes the lease l of that name, written at now.
func (c Codec) LeaseRow(name string, l models.Lease, now time.Time) LeaseRow {
	return LeaseRow{LeaseName: name, LeaseOwner: l.Owner, LeaseToken: l.Token, LeaseGeneration: l.Generation,
		LeaseExpiresAt: l.ExpiresAt, UpdatedAt: now}
}
