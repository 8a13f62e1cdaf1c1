package invitations_test

import (
	"context"
	"encoding/base64"
	"strings"
	"testing"

	"usertasks/invitations"
	"usertasks/models"
	"usertasks/testfactory"
)

// FuzzGuestVerify presents fuzzed invitation tokens, codes and session credentials for a fresh
// invitation ("$TOKEN", "$CODE" and "$CRED" stand for the real ones): the challenge never fails
// and names the code for every token but a live bearer one; verification succeeds exactly for
// the real token with the real code (any code for a bearer invitation), else it is
// guest-access-denied; the session resolves exactly for the real credential.
func FuzzGuestVerify(f *testing.F) {
	ctx := context.Background()
	store := testfactory.OpenStore(f, testfactory.SQLite, nil)
	guests := invitations.NewGuests(store)
	f.Add(false, "$TOKEN", "$CODE", "$CRED")
	f.Add(true, "$TOKEN", "", "$CRED")
	f.Add(false, "$TOKEN", " $CODE", "$CRED ")
	f.Add(false, "$TOKEN\x00", "$CODE", "x$CRED")
	f.Add(false, "$TOKEN", "０１２３４５", "")
	f.Add(true, "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA", "000000", "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA")
	f.Add(false, "a/b?c#d e", "12345\u0660", "ünïcödé")

	f.Fuzz(func(t *testing.T, bearer bool, token, code, credential string) {
		task := testfactory.Task(ctx, t, store, &testfactory.TaskOpts{Candidates: []string{"ann"}})
		inv := testfactory.Invitation(ctx, t, store, task, &testfactory.InvitationOpts{Bearer: bearer})
		token = strings.ReplaceAll(token, "$TOKEN", inv.Token)
		code = strings.ReplaceAll(code, "$CODE", inv.Code)

		if invitations.PlausibleSecret(token) {
			if b, err := base64.RawURLEncoding.DecodeString(token); err != nil || len(b) != 32 {
				t.Fatalf("PlausibleSecret(%q) but it decodes to %d bytes, %v", token, len(b), err)
			}
		}
		if !invitations.CodeMatches(inv.ID, code, invitations.HashCode(inv.ID, code)) {
			t.Fatalf("CodeMatches refuses its own hash of %q", code)
		}

		challenge, err := guests.Challenge(ctx, token)
		if err != nil {
			t.Fatalf("Challenge(%q): %v", token, err)
		}
		if want := !(bearer && token == inv.Token); challenge.RequiresCode != want {
			t.Fatalf("Challenge(%q) requires a code: %v, want %v", token, challenge.RequiresCode, want)
		}

		v, err := guests.Verify(ctx, token, code)
		if want := token == inv.Token && (bearer || code == inv.Code); want != (err == nil) {
			t.Fatalf("Verify(%q, %q) = %v, want success %v", token, code, err, want)
		}
		if err != nil {
			if models.ErrorCode(err) != models.CodeGuestAccessDenied {
				t.Fatalf("Verify(%q, %q): %v, want guest-access-denied", token, code, err)
			}
			if v, err = guests.Verify(ctx, inv.Token, inv.Code); err != nil {
				t.Fatalf("the real token and code after a failed attempt: %v", err)
			}
		}

		credential = strings.ReplaceAll(credential, "$CRED", v.Credential)
		a, err := guests.Session(ctx, credential)
		if want := credential == v.Credential; want != (err == nil) {
			t.Fatalf("Session(%q) = %v, want success %v", credential, err, want)
		}
		if err != nil && models.ErrorCode(err) != models.CodeGuestAccessDenied {
			t.Fatalf("Session(%q): %v, want guest-access-denied", credential, err)
		}
		if err == nil && (a.Guest == nil || a.Tenant != task.Tenant) {
			t.Fatalf("Session resolved to %+v", a)
		}
	})
}
