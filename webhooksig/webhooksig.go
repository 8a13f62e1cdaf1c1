// Package webhooksig signs the bodies of the outgoing webhooks (the invitation dispatcher's and
// the notifications') the one way, so that a receiver checks both alike.
package webhooksig

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
)

// MinSecret is the shortest webhook secret accepted.
const MinSecret = 32

// Header carries the signature.
const Header = "X-UserTasks-Signature"

// Sign is the Header value of body under secret: "sha256=" and the hex HMAC-SHA256.
func Sign(body, secret []byte) string {
	mac := hmac.New(sha256.New, secret)
	mac.Write(body)
	return "sha256=" + hex.EncodeToString(mac.Sum(nil))
}
