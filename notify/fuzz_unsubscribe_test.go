package notify_test

import (
	"errors"
	"strings"
	"testing"

	"usertasks/models"
	"usertasks/notify"
)

// FuzzUnsubscribeToken: whatever arrives as ?t=, Parse never panics, refuses with the one
// error, and accepts only a token it made itself (the same bytes come back from Token).
func FuzzUnsubscribeToken(f *testing.F) {
	k := tokensOf(f, ring(f, "k1"))
	good, _ := k.Token(notify.Unsubscription{Tenant: "t1", User: models.ParticipantRef{Provider: "oidc", ID: "ada"}, Trigger: models.TriggerOverdue})
	for _, s := range []string{good, "", "u1..", "u1.AA.AA", good[:len(good)-1], strings.ToUpper(good), "u1./?#.é", good + "." + good} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, tok string) {
		u, err := k.Parse(tok)
		if err != nil {
			if !errors.Is(err, notify.ErrBadUnsubscribe) {
				t.Fatalf("error %v", err)
			}
			return
		}
		again, err := k.Token(u)
		if err != nil || again != tok {
			t.Fatalf("accepted %q, which Token makes as %q (%v)", tok, again, err)
		}
	})
}
