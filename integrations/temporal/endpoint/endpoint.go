// Package endpoint is the workflow runtime User Tasks calls (docs/runtime-protocol.md) for
// Temporal: it turns each signed stimulus into the waiting workflow's signal and answers the
// reconciliation from the workflows' memos. A Temporal worker process serves it beside its
// workers; it needs the Temporal client, not the workers, so it keeps answering while they are down.
package endpoint

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"log/slog"
	"net/http"
	"strings"
	"sync/atomic"
	"time"

	"go.temporal.io/sdk/client"
)

// Config is what the endpoint needs.
type Config struct {
	// Temporal is a client of the namespace the workflows run in.
	Temporal client.Client
	// Tenant is the User Tasks tenant of these workflows (the runtime token's tenant).
	Tenant string
	// Secret is the runtime secret User Tasks signs with (USERTASKS_RUNTIME_SECRET).
	Secret []byte
	// TaskQueue, when set, limits the reconciliation listing to workflows of that task queue.
	TaskQueue string
	// CallTimeout bounds each call to Temporal (default 10 s): an unreachable Temporal answers
	// 503 in time for User Tasks' own timeout.
	CallTimeout time.Duration
	Logger      *slog.Logger
}

// Stats count what the endpoint did since it started.
type Stats struct {
	Signalled  int64 // stimuli passed to a waiting workflow
	Duplicates int64 // stimuli for a step no longer waiting (already resumed): acknowledged, not passed on
	Gone       int64 // stimuli for a workflow run that no longer exists or has closed: acknowledged
	Refused    int64 // requests refused (bad signature, bad body, tenant not served)
}

// Handler serves the three runtime calls under any path prefix: …/user-task-stimuli,
// …/user-task-bookmarks and …/user-task-bookmarks/{bookmarkId}.
type Handler struct {
	cfg                                     Config
	signalled, duplicates, gone, refusedCnt atomic.Int64
	keys                                    deliveredKeys
}

// New returns the endpoint.
func New(cfg Config) *Handler {
	if cfg.Logger == nil {
		cfg.Logger = slog.Default()
	}
	if cfg.CallTimeout <= 0 {
		cfg.CallTimeout = 10 * time.Second
	}
	return &Handler{cfg: cfg}
}

// Stats returns the counts so far.
func (h *Handler) Stats() Stats {
	return Stats{Signalled: h.signalled.Load(), Duplicates: h.duplicates.Load(), Gone: h.gone.Load(), Refused: h.refusedCnt.Load()}
}

const (
	stimuliSuffix   = "/user-task-stimuli"
	bookmarksSuffix = "/user-task-bookmarks"
)

func (h *Handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	ctx, cancel := context.WithTimeout(r.Context(), h.cfg.CallTimeout)
	defer cancel()
	r = r.WithContext(ctx)
	// The request target as sent: the bookmark id is one escaped segment, and GETs are signed
	// over exactly this.
	target := r.RequestURI
	path, _, _ := strings.Cut(target, "?")
	switch {
	case r.Method == http.MethodPost && strings.HasSuffix(path, stimuliSuffix):
		h.stimulus(w, r)
	case r.Method == http.MethodGet && strings.HasSuffix(path, bookmarksSuffix):
		if h.signedTarget(w, r, target) {
			h.list(w, r)
		}
	case r.Method == http.MethodGet && strings.Contains(path, bookmarksSuffix+"/"):
		if h.signedTarget(w, r, target) {
			segment := path[strings.LastIndex(path, bookmarksSuffix+"/")+len(bookmarksSuffix)+1:]
			h.lookup(w, r, segment)
		}
	default:
		h.refuse(w, http.StatusNotFound, "no-such-endpoint")
	}
}

// signedTarget checks the signature of a GET, made over the request target.
func (h *Handler) signedTarget(w http.ResponseWriter, r *http.Request, target string) bool {
	if !h.validSignature(r, []byte(target)) {
		h.refuse(w, http.StatusUnauthorized, "bad-signature")
		return false
	}
	if r.URL.Query().Get("tenant") != h.cfg.Tenant {
		// Not the exact bookmark-not-found answer: User Tasks treats it as ambiguous and
		// changes nothing.
		h.refuse(w, http.StatusNotFound, "tenant-not-served")
		return false
	}
	return true
}

// validSignature compares X-UserTasks-Signature with the HMAC of signed, in constant time.
func (h *Handler) validSignature(r *http.Request, signed []byte) bool {
	got, ok := strings.CutPrefix(r.Header.Get("X-UserTasks-Signature"), "sha256=")
	if !ok {
		return false
	}
	sum, err := hex.DecodeString(got)
	if err != nil {
		return false
	}
	mac := hmac.New(sha256.New, h.cfg.Secret)
	mac.Write(signed)
	return hmac.Equal(sum, mac.Sum(nil))
}

func (h *Handler) refuse(w http.ResponseWriter, status int, code string) {
	h.refusedCnt.Add(1)
	writeJSON(w, status, map[string]string{"code": code})
}

// unavailable answers a Temporal failure: User Tasks retries a stimulus later and treats a
// reconciliation answer as ambiguous. The cause is logged, never sent.
func (h *Handler) unavailable(w http.ResponseWriter, what string, err error) {
	h.cfg.Logger.Warn("usertasks endpoint: temporal call failed", "call", what, "error", err)
	writeJSON(w, http.StatusServiceUnavailable, map[string]string{"code": "temporal-unavailable"})
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}
