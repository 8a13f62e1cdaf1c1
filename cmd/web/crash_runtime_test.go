package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"sort"
	"strings"
	"sync"
	"time"

	"usertasks/workflow"
)

// crashRuntime is the workflow runtime of the crash test: an engine that commits a bookmark
// before it projects it, takes every stimulus (checking its signature and its idempotency key),
// deletes the bookmark and then tells User Tasks so with bookmarks/removed, retrying that call
// until the server answers, as a real engine must while User Tasks is down. It answers the
// reconciliation from its committed bookmarks. It records every delivery by idempotency key.
type crashRuntime struct {
	secret []byte

	mu        sync.Mutex
	committed map[string]json.RawMessage // bookmark id → projection body
	taskKeys  map[string]map[string]int  // task id → idempotency key → deliveries
	removing  []string                   // bookmark ids deleted here, not yet acknowledged by the server
	removed   int                        // bookmark ids the server acknowledged as removed
	problems  []string
	wake      chan struct{}
}

// crashRuntimePath is the runtime URL's path: the runtime endpoints go under it.
const crashRuntimePath = "/rt"

func newCrashRuntime(secret string) *crashRuntime {
	return &crashRuntime{secret: []byte(secret), committed: map[string]json.RawMessage{},
		taskKeys: map[string]map[string]int{}, wake: make(chan struct{}, 1)}
}

// commit stores a bookmark before it is projected: from now on the engine lists it.
func (r *crashRuntime) commit(bookmarkID string, body []byte) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.committed[bookmarkID] = body
}

func (r *crashRuntime) ServeHTTP(w http.ResponseWriter, req *http.Request) {
	sig := req.Header.Get("X-UserTasks-Signature")
	list := crashRuntimePath + "/user-task-bookmarks"
	switch p := req.URL.EscapedPath(); {
	case req.Method == http.MethodPost && p == crashRuntimePath+"/user-task-stimuli":
		body, err := io.ReadAll(req.Body)
		if err != nil || !validSignature(r.secret, body, sig) {
			r.refuse(w, "a stimulus with a wrong signature")
			return
		}
		var s workflow.Stimulus
		if err := json.Unmarshal(body, &s); err != nil {
			r.refuse(w, "a stimulus that is not JSON")
			return
		}
		if key := req.Header.Get("Idempotency-Key"); key != s.TaskID+":"+s.OperationID {
			r.refuse(w, fmt.Sprintf("the idempotency key %q for task %s operation %s", key, s.TaskID, s.OperationID))
			return
		}
		r.take(s)
		w.WriteHeader(http.StatusNoContent)
	case req.Method == http.MethodGet && p == list:
		if !validSignature(r.secret, []byte(req.RequestURI), sig) {
			r.refuse(w, "a listing with a wrong signature")
			return
		}
		writeJSON(w, http.StatusOK, map[string]any{"items": r.bookmarks(), "nextCursor": ""})
	case req.Method == http.MethodGet && strings.HasPrefix(p, list+"/"):
		if !validSignature(r.secret, []byte(req.RequestURI), sig) {
			r.refuse(w, "a bookmark read with a wrong signature")
			return
		}
		id, err := url.PathUnescape(strings.TrimPrefix(p, list+"/"))
		if err != nil {
			r.refuse(w, "a bookmark id that does not decode")
			return
		}
		r.mu.Lock()
		body, ok := r.committed[id]
		r.mu.Unlock()
		if !ok {
			writeJSON(w, http.StatusNotFound, map[string]string{"code": workflow.BookmarkNotFoundCode})
			return
		}
		writeJSON(w, http.StatusOK, body)
	default:
		r.refuse(w, "an unexpected "+req.Method+" "+req.RequestURI)
	}
}

// take records a stimulus; the first delivery of a bookmark's stimulus resumes the workflow,
// which deletes the bookmark and queues its removal for the server.
func (r *crashRuntime) take(s workflow.Stimulus) {
	r.mu.Lock()
	defer r.mu.Unlock()
	keys := r.taskKeys[s.TaskID]
	if keys == nil {
		keys = map[string]int{}
		r.taskKeys[s.TaskID] = keys
	}
	keys[s.TaskID+":"+s.OperationID]++
	if _, ok := r.committed[s.BookmarkID]; ok {
		delete(r.committed, s.BookmarkID)
		r.removing = append(r.removing, s.BookmarkID)
		select {
		case r.wake <- struct{}{}:
		default:
		}
	}
}

func (r *crashRuntime) bookmarks() []json.RawMessage {
	r.mu.Lock()
	defer r.mu.Unlock()
	ids := make([]string, 0, len(r.committed))
	for id := range r.committed {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	items := make([]json.RawMessage, 0, len(ids))
	for _, id := range ids {
		items = append(items, r.committed[id])
	}
	return items
}

// removeLoop tells the server about deleted bookmarks (at most 200 a call) until ctx ends,
// retrying every 100 ms while the server does not answer 200.
func (r *crashRuntime) removeLoop(ctx context.Context, c *crashClient) {
	for {
		r.mu.Lock()
		batch := append([]string(nil), r.removing[:min(len(r.removing), 200)]...)
		r.mu.Unlock()
		if len(batch) > 0 {
			var out struct {
				Finalized []string `json:"finalized"`
				Unknown   []string `json:"unknown"`
			}
			status, err := c.do(ctx, crashEngine, http.MethodPost, "/api/v1/runtime/bookmarks/removed", nil, map[string]any{"bookmarkIds": batch}, &out)
			if err == nil && status == http.StatusOK {
				r.mu.Lock()
				r.removing = r.removing[len(batch):]
				r.removed += len(batch)
				if len(out.Unknown) > 0 {
					r.problems = append(r.problems, fmt.Sprintf("the server did not know the removed bookmarks %q", out.Unknown))
				}
				r.mu.Unlock()
				continue
			}
		}
		select {
		case <-ctx.Done():
			return
		case <-r.wake:
		case <-time.After(100 * time.Millisecond):
		}
	}
}

// pendingRemovals is how many deleted bookmarks the server has not acknowledged yet.
func (r *crashRuntime) pendingRemovals() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return len(r.removing)
}

func (r *crashRuntime) refuse(w http.ResponseWriter, what string) {
	r.mu.Lock()
	r.problems = append(r.problems, "the runtime got "+what)
	r.mu.Unlock()
	http.Error(w, what, http.StatusUnauthorized)
}

// deliveries sums what the runtime received: stimuli, and the repeats among them (the same
// idempotency key delivered again).
func (r *crashRuntime) deliveries() (stimuli, repeats int) {
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, keys := range r.taskKeys {
		for _, n := range keys {
			stimuli += n
			repeats += n - 1
		}
	}
	return stimuli, repeats
}

// keysOf are the idempotency keys the runtime received for a task.
func (r *crashRuntime) keysOf(taskID string) []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	keys := []string{}
	for k := range r.taskKeys[taskID] {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// unknownTasks are the tasks the runtime got a stimulus for that are not in known.
func (r *crashRuntime) unknownTasks(known map[string]bool) []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	var out []string
	for id := range r.taskKeys {
		if !known[id] {
			out = append(out, id)
		}
	}
	return out
}

func (r *crashRuntime) problemList() string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return strings.Join(r.problems, "; ")
}

// encodeBody is v as a JSON request body.
func encodeBody(v any) (io.Reader, error) {
	if v == nil {
		return nil, nil
	}
	b, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	return bytes.NewReader(b), nil
}
