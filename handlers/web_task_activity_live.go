package handlers

import "usertasks/live"

// The kinds of Activity change announced on the live-update stream (SPEC 10.1, 10.2).
const (
	activityComment    = live.KindComment
	activityAttachment = live.KindAttachment
)

// announce tells the streams that see task id that its comments or files changed.
func (w *web) announce(tenant, id string, kind live.Kind) { announceActivity(w.live, tenant, id, kind) }

// announceActivity tells the streams that see task id that its comments or files changed,
// after the change committed (API and pages alike); without a broker (live updates off) it
// does nothing.
func announceActivity(b *live.Broker, tenant, id string, kind live.Kind) {
	if b != nil {
		b.Activity(tenant, id, kind)
	}
}
