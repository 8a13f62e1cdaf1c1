package auth

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rsa"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/MicahParks/jwkset"
	"github.com/MicahParks/keyfunc/v3"
	"github.com/golang-jwt/jwt/v5"
	"golang.org/x/time/rate"

	"usertasks/models"
)

// MaxTokenBytes bounds the raw token; anything longer is refused before it is decoded.
const MaxTokenBytes = 32 << 10

const (
	// jwksHTTPTimeout bounds every JWKS fetch.
	jwksHTTPTimeout = 10 * time.Second
	// jwksUnknownKIDWaitMax is the longest a request waits for the unknown-kid refresh budget;
	// when the next refresh is further away the token is refused at once.
	jwksUnknownKIDWaitMax = 5 * time.Second
)

// Verifier checks bearer tokens and resolves them to actors. It is safe for concurrent use.
type Verifier struct {
	cfg     Config
	methods []string // the algorithms some configured key can verify
	parser  *jwt.Parser
	rsaKeys []jwt.VerificationKey
	ecKeys  []jwt.VerificationKey
	jwks    keyfunc.Keyfunc // nil without a JWKS URL
	cancel  context.CancelFunc
}

// NewVerifier validates cfg (filling its defaults) and, with a JWKS URL, fetches the key set
// once (an unreachable or unusable JWKS is an error) and keeps refreshing it in the background
// until ctx ends or Close is called.
func NewVerifier(ctx context.Context, cfg Config) (*Verifier, error) {
	cfg = cfg.withDefaults()
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	if !cfg.Configured() {
		return nil, errors.New("auth: no token key configured (USERTASKS_JWT_HS256_SECRET, USERTASKS_JWT_PUBLIC_KEYS or USERTASKS_JWT_JWKS_URL)")
	}
	v := &Verifier{cfg: cfg}
	for _, k := range cfg.PublicKeys {
		switch k.(type) {
		case *rsa.PublicKey:
			v.rsaKeys = append(v.rsaKeys, k)
		case *ecdsa.PublicKey:
			v.ecKeys = append(v.ecKeys, k)
		}
	}
	if len(cfg.HS256Secret) > 0 {
		v.methods = append(v.methods, jwt.SigningMethodHS256.Alg())
	}
	if len(v.rsaKeys) > 0 || cfg.JWKSURL != "" {
		v.methods = append(v.methods, jwt.SigningMethodRS256.Alg())
	}
	if len(v.ecKeys) > 0 || cfg.JWKSURL != "" {
		v.methods = append(v.methods, jwt.SigningMethodES256.Alg())
	}
	if cfg.JWKSURL != "" {
		if err := v.startJWKS(ctx); err != nil {
			return nil, err
		}
	}
	opts := []jwt.ParserOption{
		jwt.WithValidMethods(v.methods),
		jwt.WithExpirationRequired(),
		jwt.WithIssuedAt(),
		jwt.WithLeeway(cfg.Leeway),
	}
	if cfg.Issuer != "" {
		opts = append(opts, jwt.WithIssuer(cfg.Issuer))
	}
	if cfg.Audience != "" {
		opts = append(opts, jwt.WithAudience(cfg.Audience))
	}
	if cfg.Now != nil {
		opts = append(opts, jwt.WithTimeFunc(cfg.Now))
	}
	v.parser = jwt.NewParser(opts...)
	return v, nil
}

// startJWKS fetches the key set and starts its background refresh.
func (v *Verifier) startJWKS(ctx context.Context) error {
	ctx, cancel := context.WithCancel(ctx)
	client := v.cfg.HTTPClient
	if client == nil {
		client = &http.Client{Timeout: jwksHTTPTimeout}
	}
	remote, err := jwkset.NewStorageFromHTTP(v.cfg.JWKSURL, jwkset.HTTPClientStorageOptions{
		Client:          client,
		Ctx:             ctx,
		HTTPTimeout:     jwksHTTPTimeout,
		RefreshInterval: v.cfg.JWKSRefreshInterval,
		RefreshErrorHandler: func(ctx context.Context, err error) {
			slog.WarnContext(ctx, "auth: JWKS refresh failed", "error", err)
		},
	})
	if err != nil {
		cancel() // the refresh goroutine may already run
		return fmt.Errorf("auth: JWKS %s: %w", v.cfg.JWKSURL, err)
	}
	storage, err := jwkset.NewHTTPClient(jwkset.HTTPClientOptions{
		HTTPURLs:          map[string]jwkset.Storage{v.cfg.JWKSURL: remote},
		RateLimitWaitMax:  jwksUnknownKIDWaitMax,
		RefreshUnknownKID: rate.NewLimiter(rate.Every(v.cfg.JWKSUnknownKIDInterval), 1),
	})
	if err != nil {
		cancel()
		return fmt.Errorf("auth: JWKS: %w", err)
	}
	// Keys marked for encryption are never used to verify; keys without "use" are.
	v.jwks, err = keyfunc.New(keyfunc.Options{Ctx: ctx, Storage: storage, UseWhitelist: []jwkset.USE{jwkset.UseSig, ""}})
	if err != nil {
		cancel()
		return fmt.Errorf("auth: JWKS: %w", err)
	}
	v.cancel = cancel
	return nil
}

// Close stops the JWKS background refresh. It is safe to call more than once.
func (v *Verifier) Close() {
	if v.cancel != nil {
		v.cancel()
	}
}

// Actor verifies rawToken (without the "Bearer " prefix) and resolves its claims. Every
// failure wraps models.ErrUnauthorized with a short reason that never contains the token.
func (v *Verifier) Actor(ctx context.Context, rawToken string) (models.Actor, error) {
	switch {
	case rawToken == "":
		return models.Actor{}, unauthorized("missing token")
	case len(rawToken) > MaxTokenBytes:
		return models.Actor{}, unauthorized("token too large")
	}
	claims := jwt.MapClaims{}
	token, err := v.parser.ParseWithClaims(rawToken, claims, v.keyfunc(ctx))
	if err != nil {
		return models.Actor{}, unauthorized(v.reason(token, err))
	}
	if err := v.checkLifetime(claims); err != nil {
		return models.Actor{}, err
	}
	if err := v.checkNotIDToken(token, claims); err != nil {
		return models.Actor{}, err
	}
	return v.cfg.ActorFromClaims(claims)
}

// checkNotIDToken refuses an OpenID Connect ID token presented as a bearer token. An ID token
// tells a client who signed in; accepting it as an API credential would let anything that saw
// one (the browser that signed in, a log) act as the person. It is recognised by what it says
// it is — a typ header of "ID" or "id_token…", Keycloak's typ claim "ID", Cognito's token_use
// "id" — and by its audience: the OIDC sign-in client (RefusedAudience), to which the provider
// issues the ID tokens of the web sign-in.
func (v *Verifier) checkNotIDToken(token *jwt.Token, claims jwt.MapClaims) error {
	typ, _ := token.Header["typ"].(string)
	typ = strings.TrimPrefix(strings.ToLower(typ), "application/")
	if typ == "id" || strings.HasPrefix(typ, "id_token") || strings.HasPrefix(typ, "id+") {
		return unauthorized("an ID token is not an access token")
	}
	if s, _ := claims["typ"].(string); strings.EqualFold(s, "ID") {
		return unauthorized("an ID token is not an access token")
	}
	if s, _ := claims["token_use"].(string); strings.EqualFold(s, "id") {
		return unauthorized("an ID token is not an access token")
	}
	if v.cfg.RefusedAudience != "" {
		aud, err := claims.GetAudience()
		if err != nil || slices.Contains(aud, v.cfg.RefusedAudience) {
			return unauthorized("token issued to the sign-in client, not to the API")
		}
	}
	return nil
}

// checkLifetime refuses a token whose exp (required by the parser) lies further ahead than
// the maximum lifetime allows, the leeway included for clock skew.
func (v *Verifier) checkLifetime(claims jwt.MapClaims) error {
	exp, err := claims.GetExpirationTime()
	if err != nil || exp == nil {
		return unauthorized("missing required claim (exp, iss or aud)")
	}
	now := time.Now()
	if v.cfg.Now != nil {
		now = v.cfg.Now()
	}
	if exp.Sub(now) > v.cfg.MaxLifetime+v.cfg.Leeway {
		return unauthorized("token lifetime over the maximum")
	}
	return nil
}

// unauthorized wraps models.ErrUnauthorized with a safe reason.
func unauthorized(reason string) error {
	return fmt.Errorf("%w: %s", models.ErrUnauthorized, reason)
}

var (
	errCritical = errors.New("critical header extensions are not supported")
	errNoKey    = errors.New("no key for this token")
)

// keyfunc returns the keys an algorithm may be verified with: the secret for HS256, RSA keys
// for RS256, P-256 keys for ES256, never a key of another type. The parser has already refused
// algorithms outside v.methods, including "none".
func (v *Verifier) keyfunc(ctx context.Context) jwt.Keyfunc {
	return func(t *jwt.Token) (any, error) {
		if _, ok := t.Header["crit"]; ok {
			return nil, errCritical
		}
		var keys []jwt.VerificationKey
		var fits func(any) bool
		switch t.Method.Alg() {
		case jwt.SigningMethodHS256.Alg():
			if len(v.cfg.HS256Secret) == 0 {
				return nil, errNoKey
			}
			return v.cfg.HS256Secret, nil
		case jwt.SigningMethodRS256.Alg():
			keys, fits = slices.Clone(v.rsaKeys), isRS256Key
		case jwt.SigningMethodES256.Alg():
			keys, fits = slices.Clone(v.ecKeys), isES256Key
		default:
			return nil, errNoKey
		}
		keys = append(keys, v.jwksKeys(ctx, t, fits)...)
		if len(keys) == 0 {
			return nil, errNoKey
		}
		return jwt.VerificationKeySet{Keys: keys}, nil
	}
}

// jwksKeys returns the JWKS keys of the right type for t: the one named by its kid (refreshing
// the set, rate limited, when the kid is unknown), or every key when it names none.
func (v *Verifier) jwksKeys(ctx context.Context, t *jwt.Token, fits func(any) bool) []jwt.VerificationKey {
	if v.jwks == nil {
		return nil
	}
	got, err := v.jwks.KeyfuncCtx(ctx)(t)
	if err != nil {
		return nil
	}
	candidates := []jwt.VerificationKey{got}
	if set, ok := got.(jwt.VerificationKeySet); ok {
		candidates = set.Keys
	}
	var keys []jwt.VerificationKey
	for _, k := range candidates {
		if fits(k) {
			keys = append(keys, k)
		}
	}
	return keys
}

func isRS256Key(k any) bool {
	rk, ok := k.(*rsa.PublicKey)
	return ok && rk.N.BitLen() >= MinRSAKeyBits
}

func isES256Key(k any) bool {
	ek, ok := k.(*ecdsa.PublicKey)
	return ok && ek.Curve == elliptic.P256()
}

// reason names why a token was refused, without echoing any of it.
func (v *Verifier) reason(token *jwt.Token, err error) string {
	switch {
	case errors.Is(err, jwt.ErrTokenMalformed):
		return "malformed token"
	case token != nil && token.Method != nil && !slices.Contains(v.methods, token.Method.Alg()):
		return "signing algorithm not accepted"
	}
	for _, r := range refusals {
		if errors.Is(err, r.err) {
			return r.reason
		}
	}
	return "invalid token"
}

// refusals name the verification errors of a well-formed token in an accepted algorithm; the
// first that err matches is the reason.
var refusals = []struct {
	err    error
	reason string
}{
	{errCritical, "unsupported critical header"},
	{jwt.ErrTokenUnverifiable, "no key for this token"},
	{jwt.ErrTokenSignatureInvalid, "invalid signature"},
	{jwt.ErrTokenExpired, "token expired"},
	{jwt.ErrTokenNotValidYet, "token not valid yet"},
	{jwt.ErrTokenUsedBeforeIssued, "token issued in the future"},
	{jwt.ErrTokenInvalidIssuer, "wrong issuer"},
	{jwt.ErrTokenInvalidAudience, "wrong audience"},
	{jwt.ErrTokenRequiredClaimMissing, "missing required claim (exp, iss or aud)"},
}
