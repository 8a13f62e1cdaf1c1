package keyring

import (
	"crypto/hkdf"
	"crypto/sha256"
	"errors"
)

// ErrUnknownKey means a key id is not in the ring.
var ErrUnknownKey = errors.New("keyring: unknown key id")

// Subkey derives a key of size bytes for one purpose from the ring's key kid (HKDF-SHA256,
// purpose as the info). Signing with a key of the ring itself would tie two uses to one
// secret; a derived key is independent of the encryption and of every other purpose, and
// rotates with its ring key: anything made under kid is checked with the same subkey for as
// long as kid stays in the ring. purpose names the use and its version, e.g.
// "usertasks notification unsubscribe v1".
func (r *Keyring) Subkey(kid, purpose string, size int) ([]byte, error) {
	key, ok := r.keys[kid]
	if !ok {
		return nil, ErrUnknownKey
	}
	if purpose == "" {
		return nil, errors.New("keyring: a subkey needs a purpose")
	}
	return hkdf.Key(sha256.New, key, nil, purpose, size)
}
