// Package keyring seals protected values with AES-256-GCM under a ring of identified keys.
// The first key encrypts; every key decrypts, so keys can be rotated without rewriting data.
package keyring

import (
	"crypto/aes"
	"crypto/cipher"
	"crypto/rand"
	"encoding/base64"
	"errors"
	"fmt"
	"strings"
)

// envelopePrefix versions the sealed format: "v1:<kid>:<base64url(nonce||ciphertext)>".
const envelopePrefix = "v1"

// ErrUndecodable means a sealed value is malformed, names an unknown key, or fails
// authentication. Callers report it as corruption; it never carries the plaintext.
var ErrUndecodable = errors.New("keyring: sealed value cannot be opened")

// Keyring holds the AEADs by key id.
type Keyring struct {
	primary string
	aeads   map[string]cipher.AEAD
	keys    map[string][]byte // the raw keys, only for Subkey's derivation (derive.go)
}

// Parse reads a ring from "kid:base64key,kid2:base64key2"; each key is 32 bytes (standard or
// URL base64). The first key encrypts.
func Parse(spec string) (*Keyring, error) {
	r := &Keyring{aeads: map[string]cipher.AEAD{}, keys: map[string][]byte{}}
	for i, part := range strings.Split(spec, ",") {
		part = strings.TrimSpace(part)
		kid, encoded, ok := strings.Cut(part, ":")
		if !ok || kid == "" || strings.ContainsAny(kid, ": ") {
			return nil, fmt.Errorf("keyring: entry %d is not kid:base64key", i+1)
		}
		key, err := decodeKey(encoded)
		if err != nil {
			return nil, fmt.Errorf("keyring: key %q: %w", kid, err)
		}
		if _, dup := r.aeads[kid]; dup {
			return nil, fmt.Errorf("keyring: key id %q appears twice", kid)
		}
		aead, err := newAEAD(key)
		if err != nil {
			return nil, err
		}
		r.aeads[kid] = aead
		r.keys[kid] = key
		if i == 0 {
			r.primary = kid
		}
	}
	return r, nil
}

// Generate returns a spec with one fresh random key, for development data folders.
func Generate(kid string) (string, error) {
	key := make([]byte, 32)
	if _, err := rand.Read(key); err != nil {
		return "", err
	}
	return kid + ":" + base64.StdEncoding.EncodeToString(key), nil
}

func decodeKey(s string) ([]byte, error) {
	for _, enc := range []*base64.Encoding{base64.StdEncoding, base64.URLEncoding, base64.RawStdEncoding, base64.RawURLEncoding} {
		if key, err := enc.DecodeString(s); err == nil {
			if len(key) != 32 {
				return nil, fmt.Errorf("want 32 bytes, got %d", len(key))
			}
			return key, nil
		}
	}
	return nil, errors.New("not base64")
}

func newAEAD(key []byte) (cipher.AEAD, error) {
	block, err := aes.NewCipher(key)
	if err != nil {
		return nil, err
	}
	return cipher.NewGCM(block)
}

// PrimaryKeyID is the id of the key that encrypts.
func (r *Keyring) PrimaryKeyID() string { return r.primary }

// Seal encrypts plaintext. aad binds the value to its place (for example task id and column),
// so a ciphertext copied to another row does not open.
func (r *Keyring) Seal(plaintext, aad []byte) (string, error) {
	aead := r.aeads[r.primary]
	nonce := make([]byte, aead.NonceSize())
	if _, err := rand.Read(nonce); err != nil {
		return "", err
	}
	sealed := aead.Seal(nonce, nonce, plaintext, aad)
	return envelopePrefix + ":" + r.primary + ":" + base64.RawURLEncoding.EncodeToString(sealed), nil
}

// Open decrypts an envelope made by Seal with any key of the ring.
func (r *Keyring) Open(envelope string, aad []byte) ([]byte, error) {
	version, rest, ok := strings.Cut(envelope, ":")
	if !ok || version != envelopePrefix {
		return nil, ErrUndecodable
	}
	kid, encoded, ok := strings.Cut(rest, ":")
	if !ok {
		return nil, ErrUndecodable
	}
	aead, known := r.aeads[kid]
	if !known {
		return nil, ErrUndecodable
	}
	sealed, err := base64.RawURLEncoding.DecodeString(encoded)
	if err != nil || len(sealed) < aead.NonceSize()+aead.Overhead() {
		return nil, ErrUndecodable
	}
	plain, err := aead.Open(nil, sealed[:aead.NonceSize()], sealed[aead.NonceSize():], aad)
	if err != nil {
		return nil, ErrUndecodable
	}
	return plain, nil
}

// KeyID returns the key id an envelope was sealed with, for rotation reports.
func KeyID(envelope string) (string, bool) {
	parts := strings.SplitN(envelope, ":", 3)
	if len(parts) != 3 || parts[0] != envelopePrefix {
		return "", false
	}
	return parts[1], true
}
