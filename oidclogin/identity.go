package oidclogin

import (
	"context"
	"errors"
	"fmt"

	"github.com/coreos/go-oidc/v3/oidc"
	"golang.org/x/oauth2"

	"usertasks/models"
)

// Refresh implements websession.IdentitySource: it redeems the session's refresh token and
// maps the answer's ID token (and userinfo, when configured) exactly like a sign-in. Without a
// refresh token, or when the provider refuses it or answers without an identity, the identity
// cannot be re-read and the session ends. A rotated refresh token and the answer's ID token are
// returned for storing.
func (o *Login) Refresh(ctx context.Context, ws models.WebSession) (models.WebIdentity, models.WebTokens, error) {
	var none models.WebTokens
	if ws.RefreshToken == "" {
		return models.WebIdentity{}, none, errors.New("the provider issued no refresh token")
	}
	ctx = oidc.ClientContext(ctx, o.client)
	tok, err := o.oauth.TokenSource(ctx, &oauth2.Token{RefreshToken: ws.RefreshToken}).Token()
	if err != nil {
		return models.WebIdentity{}, none, fmt.Errorf("refresh: %w", err)
	}
	var idt *oidc.IDToken
	raw, _ := tok.Extra("id_token").(string)
	if raw != "" {
		if idt, err = o.verifier.Verify(ctx, raw); err != nil {
			return models.WebIdentity{}, none, fmt.Errorf("refreshed id token: %w", err)
		}
	} else if !o.userInfo {
		return models.WebIdentity{}, none, errors.New("the refresh answer carries no ID token")
	}
	a, err := o.actorOf(ctx, tok, idt)
	if err != nil {
		return models.WebIdentity{}, none, err
	}
	tokens := models.WebTokens{ID: raw}
	if tok.RefreshToken != ws.RefreshToken {
		tokens.Refresh = tok.RefreshToken
	}
	return models.IdentityOf(a), tokens, nil
}

// actorOf maps the claims of a verified ID token (nil: none) and, when configured, of the
// userinfo endpoint, which fill in what the ID token lacks.
func (o *Login) actorOf(ctx context.Context, tok *oauth2.Token, idt *oidc.IDToken) (models.Actor, error) {
	claims := map[string]any{}
	if idt != nil {
		if err := idt.Claims(&claims); err != nil {
			return models.Actor{}, fmt.Errorf("claims: %w", err)
		}
	}
	if o.userInfo {
		ui, err := o.provider.UserInfo(ctx, oauth2.StaticTokenSource(tok))
		if err != nil {
			return models.Actor{}, fmt.Errorf("userinfo: %w", err)
		}
		if idt != nil && ui.Subject != idt.Subject {
			return models.Actor{}, errors.New("userinfo subject differs from the ID token's")
		}
		extra := map[string]any{}
		if err := ui.Claims(&extra); err != nil {
			return models.Actor{}, fmt.Errorf("userinfo claims: %w", err)
		}
		for k, v := range extra {
			if _, ok := claims[k]; !ok {
				claims[k] = v
			}
		}
	}
	return o.mapping.ActorFromClaims(claims)
}
