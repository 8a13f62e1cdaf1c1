package invitations_test

import (
	"strings"
	"testing"
	"time"

	"usertasks/invitations"
	"usertasks/models"
)

func TestSecretsAreRandomAndOnlyTheirHashIsStored(t *testing.T) {
	a, ha, err := invitations.NewSecret()
	if err != nil {
		t.Fatal(err)
	}
	b, hb, _ := invitations.NewSecret()
	if a == b || ha == hb || len(a) != 43 || strings.Contains(ha, a) || ha != invitations.HashSecret(a) {
		t.Fatalf("secrets %q %q hashes %q %q", a, b, ha, hb)
	}
	if !invitations.PlausibleSecret(a) {
		t.Fatalf("%q is not plausible", a)
	}
	for _, bad := range []string{"", "short", a + "x", strings.Repeat("/", 43), "a b" + a[3:], "\x00" + a[1:]} {
		if invitations.PlausibleSecret(bad) {
			t.Errorf("PlausibleSecret(%q) = true", bad)
		}
	}
}

func TestCodesAreSixDigitsBoundToTheirInvitation(t *testing.T) {
	code, hash, err := invitations.NewCode("inv-1")
	if err != nil {
		t.Fatal(err)
	}
	if len(code) != 6 || strings.Trim(code, "0123456789") != "" {
		t.Fatalf("code %q", code)
	}
	if !invitations.CodeMatches("inv-1", code, hash) || invitations.CodeMatches("inv-2", code, hash) {
		t.Fatal("a code must match its own invitation only")
	}
	if invitations.CodeMatches("inv-1", code+"0", hash) || invitations.CodeMatches("inv-1", "", hash) {
		t.Fatal("a wrong code matched")
	}
}

func TestExpiryIsTheLifetimeCappedAtDue(t *testing.T) {
	now := time.Date(2026, 12, 3, 10, 0, 0, 0, time.UTC)
	due := now.Add(48 * time.Hour)
	cases := []struct {
		life string
		due  *time.Time
		want time.Time
	}{
		{"", nil, now.Add(7 * 24 * time.Hour)},
		{"PT12H", nil, now.Add(12 * time.Hour)},
		{"", &due, due},
		{"PT1H", &due, now.Add(time.Hour)},
	}
	for _, c := range cases {
		got, err := invitations.ExpiresAt(models.InvitationDefinition{Lifetime: c.life}, models.Task{DueAt: c.due}, now)
		if err != nil || !got.Equal(c.want) {
			t.Errorf("ExpiresAt(%q, %v) = %v, %v; want %v", c.life, c.due, got, err, c.want)
		}
	}
	if _, err := invitations.ExpiresAt(models.InvitationDefinition{Lifetime: "P1Y"}, models.Task{}, now); err == nil {
		t.Error("a calendar lifetime was accepted")
	}
	inv := models.Invitation{ExpiresAt: now.Add(time.Hour)}
	if got := invitations.SessionExpiresAt(inv, now); !got.Equal(inv.ExpiresAt) {
		t.Errorf("session outlives its invitation: %v", got)
	}
	inv.ExpiresAt = now.Add(72 * time.Hour)
	if got := invitations.SessionExpiresAt(inv, now); !got.Equal(now.Add(4 * time.Hour)) {
		t.Errorf("session longer than 4 h: %v", got)
	}
}

func TestLinkKeepsTheBasePathAndEscapesTheToken(t *testing.T) {
	if got := invitations.Link("https://example.org/tasks/", "a-b_c"); got != "https://example.org/tasks/guest?t=a-b_c" {
		t.Fatalf("link %q", got)
	}
	p := invitations.Payload{Token: "tok", Code: "012345", Recipient: "g@example.org"}
	b, _ := p.Encode()
	got, err := invitations.DecodePayload(b)
	if err != nil || got != p {
		t.Fatalf("payload round trip %+v %v", got, err)
	}
	if _, err := invitations.DecodePayload([]byte(`{"code":"1"}`)); err == nil {
		t.Fatal("a payload without a token decoded")
	}
}
