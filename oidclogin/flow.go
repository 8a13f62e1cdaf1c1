package oidclogin

import (
	"context"
	"crypto/subtle"
	"errors"
	"fmt"
	"net/url"

	"github.com/coreos/go-oidc/v3/oidc"
	"golang.org/x/oauth2"

	"usertasks/models"
	"usertasks/websession"
)

// State is what the browser holds between leaving for the provider and coming back: the state
// to compare, the nonce the ID token must carry, the PKCE verifier, and where to go afterwards.
type State struct {
	State    string `json:"s"`
	Nonce    string `json:"n"`
	Verifier string `json:"v"`
	Next     string `json:"next,omitempty"`
	Expires  int64  `json:"exp"`
}

// Refusal is why a sign-in was refused, for the log; the person is told no more than that it
// failed.
type Refusal struct {
	Reason string
	Err    error // the underlying error, if any
}

func (r *Refusal) Error() string {
	if r.Err == nil {
		return r.Reason
	}
	return r.Reason + ": " + r.Err.Error()
}

func (r *Refusal) Unwrap() error { return r.Err }

// LogAttrs are the log attributes of a failed sign-in: the refusal's reason and underlying
// error, or the error itself as the reason.
func LogAttrs(err error) []any {
	var r *Refusal
	if !errors.As(err, &r) {
		return []any{"reason", err.Error()}
	}
	attrs := []any{"reason", r.Reason}
	if r.Err != nil {
		attrs = append(attrs, "error", r.Err.Error())
	}
	return attrs
}

// Start begins a sign-in that returns to next (a local path the caller checked): the state to
// keep until the callback, for StateLifetime, and the provider's authorization URL to send the
// browser to.
func (o *Login) Start(next string) (State, string) {
	st := State{State: websession.RandomToken(), Nonce: websession.RandomToken(), Verifier: oauth2.GenerateVerifier(),
		Next: next, Expires: o.now().Add(StateLifetime).Unix()}
	return st, o.oauth.AuthCodeURL(st.State, oidc.Nonce(st.Nonce), oauth2.S256ChallengeOption(st.Verifier))
}

// Finish checks the provider's answer at the callback against the state kept since Start (a
// missing state is the zero State, which has expired): the state parameter, an error the
// provider reports, the code. It then redeems the code with the PKCE verifier, verifies the ID
// token and its nonce, and maps the claims. It returns the actor and the tokens to keep with
// the session: the refresh token, if the provider issued one, and the raw ID token (the
// id_token_hint of the logout at the provider). Every failure is a *Refusal.
func (o *Login) Finish(ctx context.Context, st State, callback url.Values) (models.Actor, models.WebTokens, error) {
	var none models.WebTokens
	switch {
	case o.now().Unix() >= st.Expires:
		return models.Actor{}, none, &Refusal{Reason: "missing or expired state cookie"}
	case subtle.ConstantTimeCompare([]byte(callback.Get("state")), []byte(st.State)) != 1:
		return models.Actor{}, none, &Refusal{Reason: "state mismatch"}
	case callback.Get("error") != "":
		// Bounded: the parameter is whatever the browser was sent back with.
		return models.Actor{}, none, &Refusal{Reason: fmt.Sprintf("provider error: %.64s", callback.Get("error"))}
	case callback.Get("code") == "":
		return models.Actor{}, none, &Refusal{Reason: "no code"}
	}
	a, tokens, err := o.exchange(ctx, callback.Get("code"), st)
	if err != nil {
		return models.Actor{}, none, &Refusal{Reason: "exchange", Err: err}
	}
	return a, tokens, nil
}

// exchange redeems the code and maps the verified ID token to an actor. It also returns the
// refresh token, if the provider issued one, and the ID token.
func (o *Login) exchange(ctx context.Context, code string, st State) (models.Actor, models.WebTokens, error) {
	var none models.WebTokens
	ctx = oidc.ClientContext(ctx, o.client)
	tok, err := o.oauth.Exchange(ctx, code, oauth2.VerifierOption(st.Verifier))
	if err != nil {
		return models.Actor{}, none, fmt.Errorf("token: %w", err)
	}
	raw, ok := tok.Extra("id_token").(string)
	if !ok || raw == "" {
		return models.Actor{}, none, errors.New("no id_token in the token response")
	}
	idt, err := o.verifier.Verify(ctx, raw)
	if err != nil {
		return models.Actor{}, none, fmt.Errorf("id token: %w", err)
	}
	if subtle.ConstantTimeCompare([]byte(idt.Nonce), []byte(st.Nonce)) != 1 {
		return models.Actor{}, none, errors.New("nonce mismatch")
	}
	a, err := o.actorOf(ctx, tok, idt)
	if err != nil {
		return models.Actor{}, none, err
	}
	return a, models.WebTokens{Refresh: tok.RefreshToken, ID: raw}, nil
}
