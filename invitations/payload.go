package invitations

import (
	"encoding/json"
	"fmt"
	"net/url"
	"strings"
)

// Payload is what a delivery row carries to its dispatcher, sealed at rest: the raw token, the
// code of the `code` verifier, and the recipient's address. It is opened for one dispatch
// attempt only and never logged.
type Payload struct {
	Token     string `json:"token"`
	Code      string `json:"code,omitempty"`
	Recipient string `json:"recipient,omitempty"`
}

// Encode is the payload as stored (before the store seals it).
func (p Payload) Encode() ([]byte, error) { return json.Marshal(p) }

// DecodePayload reads an opened delivery payload.
func DecodePayload(b []byte) (Payload, error) {
	var p Payload
	if err := json.Unmarshal(b, &p); err != nil || p.Token == "" {
		return Payload{}, fmt.Errorf("invitations: delivery payload does not decode")
	}
	return p, nil
}

// Link is the guest's entry point: USERTASKS_BASE_URL/guest?t=<token>. A base URL with a
// path (a deployment behind a prefix) keeps its path.
func Link(baseURL, token string) string {
	return strings.TrimRight(baseURL, "/") + "/guest?t=" + url.QueryEscape(token)
}
