package notify

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"encoding/binary"
	"errors"
	"fmt"
	"strings"
	"sync"

	"usertasks/keyring"
	"usertasks/models"
)

// One-click unsubscribe (RFC 8058): every notification mail names a link that turns one
// trigger's email off (a digest's: the digest), for one person, without a session. The link's
// token is the capability: it carries what it unsubscribes and a MAC over it, so nothing is
// stored per mail and a token cannot be altered to unsubscribe anyone else.
//
//	u1.<base64url(payload)>.<base64url(HMAC-SHA256(subkey, "u1." + payload part)[:16])>
//
// payload: key id, tenant, provider, user id, topic (a trigger or "digest"), each a uvarint
// length and its bytes. The subkey is derived from the named key of the encryption key ring
// for this purpose alone (keyring.Subkey): tokens stay valid while that key is in the ring
// and need no expiry (unsubscribing again is harmless). "u1" versions the format and the
// derivation: a later format takes a new prefix and a new purpose string.

const (
	unsubscribeVersion = "u1"
	unsubscribePurpose = "usertasks notification unsubscribe v1"
	unsubscribeMACSize = 16 // 128 bits: no one forges a MAC they cannot query offline
	maxUnsubscribeLen  = 1024
	// TopicDigest is the topic of a digest mail's unsubscribe.
	TopicDigest = "digest"
)

// ErrBadUnsubscribe is any token that is not one this server made: malformed, altered, too
// long, or under a key no longer in the ring. The handler answers it with 404, alike for all.
var ErrBadUnsubscribe = fmt.Errorf("notify: unsubscribe token not valid: %w", models.ErrNotFound)

// Unsubscription is what a token unsubscribes: one person of one tenant from one trigger's
// email, or (Trigger empty) from their digest.
type Unsubscription struct {
	Tenant  string
	User    models.ParticipantRef // a user: provider and id (no display name, no tenant)
	Trigger models.NotificationTrigger
}

// Digest reports whether u unsubscribes from the digest.
func (u Unsubscription) Digest() bool { return u.Trigger == "" }

func (u Unsubscription) topic() string {
	if u.Digest() {
		return TopicDigest
	}
	return string(u.Trigger)
}

// UnsubscribeTokens makes and checks unsubscribe tokens under a key ring.
type UnsubscribeTokens struct {
	ring *keyring.Keyring
	mu   sync.Mutex
	keys map[string][]byte // subkeys by ring key id
}

// NewUnsubscribeTokens derives the signing subkey from the ring's primary key.
func NewUnsubscribeTokens(ring *keyring.Keyring) (*UnsubscribeTokens, error) {
	if ring == nil {
		return nil, errors.New("notify: unsubscribe tokens need the key ring")
	}
	t := &UnsubscribeTokens{ring: ring, keys: map[string][]byte{}}
	if _, err := t.subkey(ring.PrimaryKeyID()); err != nil {
		return nil, fmt.Errorf("notify: unsubscribe key: %w", err)
	}
	return t, nil
}

func (t *UnsubscribeTokens) subkey(kid string) ([]byte, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if k, ok := t.keys[kid]; ok {
		return k, nil
	}
	k, err := t.ring.Subkey(kid, unsubscribePurpose, 32)
	if err != nil {
		return nil, err
	}
	t.keys[kid] = k
	return k, nil
}

// Token is the token of u under the ring's primary key.
func (t *UnsubscribeTokens) Token(u Unsubscription) (string, error) {
	if err := checkUnsubscription(u); err != nil {
		return "", err
	}
	kid := t.ring.PrimaryKeyID()
	key, err := t.subkey(kid)
	if err != nil {
		return "", err
	}
	var p []byte
	for _, f := range []string{kid, u.Tenant, u.User.Provider, u.User.ID, u.topic()} {
		p = binary.AppendUvarint(p, uint64(len(f)))
		p = append(p, f...)
	}
	signed := unsubscribeVersion + "." + base64.RawURLEncoding.EncodeToString(p)
	return signed + "." + base64.RawURLEncoding.EncodeToString(unsubscribeMAC(key, signed)), nil
}

// Parse checks token and returns what it unsubscribes; any fault is ErrBadUnsubscribe.
func (t *UnsubscribeTokens) Parse(token string) (Unsubscription, error) {
	if len(token) > maxUnsubscribeLen {
		return Unsubscription{}, ErrBadUnsubscribe
	}
	signed, mac64, ok := cutLast(token, ".")
	version, payload64, ok2 := strings.Cut(signed, ".")
	if !ok || !ok2 || version != unsubscribeVersion {
		return Unsubscription{}, ErrBadUnsubscribe
	}
	p, err1 := base64.RawURLEncoding.Strict().DecodeString(payload64)
	mac, err2 := base64.RawURLEncoding.Strict().DecodeString(mac64)
	if err1 != nil || err2 != nil || len(mac) != unsubscribeMACSize {
		return Unsubscription{}, ErrBadUnsubscribe
	}
	fields := make([]string, 0, 5)
	for len(fields) < 5 {
		n, k := binary.Uvarint(p)
		if k <= 0 || n > uint64(len(p)-k) {
			return Unsubscription{}, ErrBadUnsubscribe
		}
		fields = append(fields, string(p[k:k+int(n)]))
		p = p[k+int(n):]
	}
	if len(p) != 0 {
		return Unsubscription{}, ErrBadUnsubscribe
	}
	key, err := t.subkey(fields[0])
	if err != nil || !hmac.Equal(mac, unsubscribeMAC(key, signed)) {
		return Unsubscription{}, ErrBadUnsubscribe
	}
	u := Unsubscription{Tenant: fields[1], User: models.ParticipantRef{Provider: fields[2], Type: models.UserParticipant, ID: fields[3]}}
	if fields[4] != TopicDigest {
		u.Trigger = models.NotificationTrigger(fields[4])
	}
	if checkUnsubscription(u) != nil {
		return Unsubscription{}, ErrBadUnsubscribe
	}
	return u, nil
}

// checkUnsubscription refuses what no notification is sent to: no tenant or user, a guest, an
// unknown trigger, names longer than the store keeps.
func checkUnsubscription(u Unsubscription) error {
	switch {
	case u.Tenant == "" || len(u.Tenant) > models.MaxTenantLength,
		u.User.ID == "" || len(u.User.ID) > models.MaxParticipantIDLength,
		len(u.User.Provider) > models.MaxProviderLength,
		u.User.Provider == models.GuestProvider,
		u.User.Type != "" && u.User.Type != models.UserParticipant,
		!u.Digest() && !u.Trigger.Valid():
		return errors.New("notify: nothing to unsubscribe from")
	}
	return nil
}

func unsubscribeMAC(key []byte, signed string) []byte {
	m := hmac.New(sha256.New, key)
	m.Write([]byte(signed))
	return m.Sum(nil)[:unsubscribeMACSize]
}

// cutLast splits s around the last sep.
func cutLast(s, sep string) (string, string, bool) {
	i := strings.LastIndex(s, sep)
	if i < 0 {
		return s, "", false
	}
	return s[:i], s[i+len(sep):], true
}
