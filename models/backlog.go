package models

import "time"

// Backlog is what waits in the two outboxes, across all tenants: counts and one age, never a
// tenant, task or recipient. The metrics read it at scrape time.
type Backlog struct {
	// ResumptionsPending counts resumption outbox rows still to deliver to the runtime.
	ResumptionsPending int
	// OldestResumptionDue is when the most overdue pending resumption became due; zero when
	// none is pending.
	OldestResumptionDue time.Time
	// DeliveriesPending counts invitation deliveries still to send; DeliveriesRetrying those of
	// them that failed at least once; DeliveriesAbandoned those whose retries ran out.
	DeliveriesPending   int
	DeliveriesRetrying  int
	DeliveriesAbandoned int
	// Now is the database clock at the read, to age OldestResumptionDue by.
	Now time.Time
}
