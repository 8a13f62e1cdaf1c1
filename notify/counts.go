package notify

import "usertasks/models"

// Counts count what the notification workers did, as a recorded run shows them (worker
// "notify" on /manage/runs).
type Counts struct {
	Claimed  int // rows leased to this node
	Expanded int // group rows replaced by their members' rows
	Members  int // member rows those expansions wrote
	Shown    int // rows shown in their recipient's in-app list
	Emailed  int // mails sent
	Digest   int // mails left for the recipient's digest
	Webhook  int // webhook calls acknowledged
	Retried  int // attempts that failed and were scheduled again
	Failed   int // rows whose retries ran out (or refused for good)
	Dropped  int // rows dropped: no longer visible, unknown group, no directory, task gone
	DueSoon  int // due-soon rows the due-soon worker wrote
}

// Add adds o to c.
func (c *Counts) Add(o Counts) {
	c.Claimed += o.Claimed
	c.Expanded += o.Expanded
	c.Members += o.Members
	c.Shown += o.Shown
	c.Emailed += o.Emailed
	c.Digest += o.Digest
	c.Webhook += o.Webhook
	c.Retried += o.Retried
	c.Failed += o.Failed
	c.Dropped += o.Dropped
	c.DueSoon += o.DueSoon
}

// Busy reports whether anything was counted.
func (c Counts) Busy() bool { return c != Counts{} }

// Map names the counts, as recorded in a worker run.
func (c Counts) Map() map[string]int {
	return map[string]int{"claimed": c.Claimed, "expanded": c.Expanded, "members": c.Members, "shown": c.Shown,
		"emailed": c.Emailed, "digest": c.Digest, "webhook": c.Webhook, "retried": c.Retried, "failed": c.Failed,
		"withheld": c.Dropped, "dueSoon": c.DueSoon}
}

// Result counts what one run did, in all and per tenant.
type Result struct {
	Counts
	Tenants map[string]Counts
}

func (r *Result) count(tenant string, one Counts) {
	if r.Tenants == nil {
		r.Tenants = map[string]Counts{}
	}
	r.Counts.Add(one)
	c := r.Tenants[tenant]
	c.Add(one)
	r.Tenants[tenant] = c
}

// addChannel counts and observes what became of one channel in an attempt (before → after).
func (c *Counts) addChannel(d *Deliverer, channel string, before, after models.ChannelState) {
	if before.Settled() {
		return // decided in an earlier attempt
	}
	outcome := "retried"
	switch after {
	case models.ChannelSent:
		outcome = "sent"
		if channel == "email" {
			c.Emailed++
		} else {
			c.Webhook++
		}
	case models.ChannelDigest:
		outcome = "digest"
		c.Digest++
	case models.ChannelOff:
		outcome = "off"
	case models.ChannelFailed:
		outcome = "failed"
	}
	d.observe(channel, outcome)
}
