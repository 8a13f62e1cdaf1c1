package storekit

import (
	"strings"
	"testing"
	"time"

	"usertasks/models"
)

// TestNotificationRowRoundTrip: a new row is pending, undecided on both channels and not
// leased, due and changed at the store's clock; it decodes back with its recipient and actor,
// and a title or actor name longer than its column is cut on a rune boundary.
func TestNotificationRowRoundTrip(t *testing.T) {
	c := Codec{Precision: time.Microsecond}
	now := fineTime.Add(time.Hour)
	ann := models.ParticipantRef{Tenant: "acme", Provider: "oidc", Type: models.UserParticipant, ID: "ann/?# ü"}
	bob := models.ParticipantRef{Tenant: "acme", Provider: "oidc", Type: models.UserParticipant, ID: "bob", DisplayName: strings.Repeat("é", 300)}
	n := models.Notification{ID: "n1", Tenant: "acme", Recipient: ann, TaskID: "task-1", Trigger: models.TriggerTaskAssigned,
		Revision: 7, Actor: &bob, Title: strings.Repeat("ä", 600), State: models.NotificationDone, Email: models.ChannelSent,
		OccurredAt: fineTime, AvailableAt: fineTime.Add(-time.Hour)}
	r := c.NotificationRow(&n, now)
	if r.State != "pending" || r.EmailState != nil || r.WebhookState != nil || r.LeaseToken != nil || r.Attempts != 0 {
		t.Fatalf("row %+v: want pending, undecided, not leased", r)
	}
	if !r.AvailableAt.Equal(c.Time(now)) || !r.UpdatedAt.Equal(c.Time(now)) || !r.OccurredAt.Equal(c.Time(fineTime)) {
		t.Fatalf("times %v %v %v: want due and changed now, occurred as given", r.AvailableAt, r.UpdatedAt, r.OccurredAt)
	}
	if got := []rune(r.Title); len(got) != models.MaxTitleLength || got[0] != 'ä' {
		t.Fatalf("title of %d runes, want %d", len(got), models.MaxTitleLength)
	}
	if got := []rune(*r.ActorDisplay); len(got) != models.MaxDisplayNameLength {
		t.Fatalf("actor display of %d runes, want %d", len(got), models.MaxDisplayNameLength)
	}
	back := c.Notification(&r)
	if back.Recipient != ann || back.Actor == nil || back.Actor.ID != "bob" || back.Email != models.ChannelUndecided ||
		back.Trigger != models.TriggerTaskAssigned || back.Revision != 7 || back.Lease != nil || back.VisibleAt != nil {
		t.Fatalf("decoded %+v", back)
	}
	system := c.NotificationRow(&models.Notification{ID: "n2", Tenant: "acme", Recipient: ann, Title: "t"}, now)
	if system.ActorProvider != nil || c.Notification(&system).Actor != nil {
		t.Fatal("a notification without an actor stored one")
	}
}

// TestPersonRowKeepsWhatFits: claims longer than their columns (or a display name with
// control characters) are not recorded rather than failing the request; preferences decode
// completed with the defaults, a stored object that no longer parses as the defaults.
func TestPersonRowKeepsWhatFits(t *testing.T) {
	c := Codec{Precision: time.Microsecond}
	p := models.Person{Tenant: "acme", User: models.ParticipantRef{Provider: "oidc", Type: models.UserParticipant, ID: "ann", DisplayName: "Ann\x07"},
		Email: strings.Repeat("a", 321), Language: "de", TimeZone: strings.Repeat("Z", 65), Manager: true}
	r := c.PersonRow(&p, fineTime)
	if r.DisplayName != nil || r.Email != nil || r.TimeZone != nil || Str(r.Language) != "de" || !r.Manager {
		t.Fatalf("row %+v: want only the language and manager recorded", r)
	}
	if r.EmailPrefs != nil || r.Digest != nil {
		t.Fatal("a first record carries preferences")
	}
	prefs, digest := PreferenceColumns(models.NotificationPreferences{
		Email: map[models.NotificationTrigger]bool{models.TriggerDueSoon: true, models.TriggerOverdue: false, "bogus": true}, Digest: models.DigestDaily})
	if Str(prefs) != `{"due-soon":true,"overdue":false}` || Str(digest) != "daily" {
		t.Fatalf("preference columns %q %q", Str(prefs), Str(digest))
	}
	r.EmailPrefs, r.Digest = prefs, digest
	got := c.Person(&r)
	if !got.Preferences.EmailOn(models.TriggerDueSoon) || got.Preferences.EmailOn(models.TriggerOverdue) ||
		!got.Preferences.EmailOn(models.TriggerTaskAssigned) || got.Preferences.Digest != models.DigestDaily {
		t.Fatalf("preferences %+v: want the set ones over the defaults", got.Preferences)
	}
	if got.User.Type != models.UserParticipant || got.User.Tenant != "acme" || got.Language != "de" {
		t.Fatalf("person %+v", got)
	}
	broken := "{not json"
	r.EmailPrefs, r.Digest = &broken, nil
	if got := c.Person(&r).Preferences; got.Digest != models.DigestOff || !got.EmailOn(models.TriggerOverdue) {
		t.Fatalf("unparseable preferences read as %+v, want the defaults", got)
	}
	if off, _ := PreferenceColumns(models.NotificationPreferences{Digest: models.DigestOff}); off != nil {
		t.Fatal("no choices stored as an object")
	}
}
