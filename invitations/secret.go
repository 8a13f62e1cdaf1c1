package invitations

import (
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base64"
	"encoding/hex"
	"fmt"
	"math/big"
)

// tokenBytes is the entropy of invitation tokens and guest session credentials (SPEC 6).
const tokenBytes = 32

// NewSecret returns a fresh random secret, base64url without padding, and its stored hash.
// Invitation tokens and guest session credentials are both made this way.
func NewSecret() (raw, hash string, err error) {
	b := make([]byte, tokenBytes)
	if _, err := rand.Read(b); err != nil {
		return "", "", fmt.Errorf("invitations: random source: %w", err)
	}
	raw = base64.RawURLEncoding.EncodeToString(b)
	return raw, HashSecret(raw), nil
}

// HashSecret is the stored form of a token or credential: hex SHA-256. The secrets carry 256
// bits of entropy, so an unsalted fast hash is enough to make a leaked table useless.
func HashSecret(raw string) string {
	sum := sha256.Sum256([]byte(raw))
	return hex.EncodeToString(sum[:])
}

// PlausibleSecret reports whether s could be a secret made by NewSecret; anything else is
// refused before it reaches the store (and its logs).
func PlausibleSecret(s string) bool {
	if len(s) != base64.RawURLEncoding.EncodedLen(tokenBytes) {
		return false
	}
	_, err := base64.RawURLEncoding.DecodeString(s)
	return err == nil
}

// codeDigits is the length of the one-time code of the `code` verifier.
const codeDigits = 6

// NewCode returns a fresh 6-digit code and its stored hash for the invitation.
func NewCode(invitationID string) (code, hash string, err error) {
	n, err := rand.Int(rand.Reader, big.NewInt(1_000_000))
	if err != nil {
		return "", "", fmt.Errorf("invitations: random source: %w", err)
	}
	code = fmt.Sprintf("%0*d", codeDigits, n.Int64())
	return code, HashCode(invitationID, code), nil
}

// HashCode binds a code to its invitation so equal codes of two invitations hash apart. A
// code has only a million values: the attempt limit, not the hash, is what protects it.
func HashCode(invitationID, code string) string {
	sum := sha256.Sum256([]byte("usertasks-code\x00" + invitationID + "\x00" + code))
	return hex.EncodeToString(sum[:])
}

// CodeMatches compares a submitted code with the stored hash in constant time.
func CodeMatches(invitationID, code, storedHash string) bool {
	got := HashCode(invitationID, code)
	return subtle.ConstantTimeCompare([]byte(got), []byte(storedHash)) == 1
}
