package workflow_test

import (
	"encoding/json"
	"errors"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"usertasks/models"
	"usertasks/workflow"
)

func TestRuntimeHTTPDeliver(t *testing.T) {
	const secret = "s3cret"
	var mu sync.Mutex
	var gotBody []byte
	var gotHeader http.Header
	var gotPath string
	status := http.StatusAccepted
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		defer mu.Unlock()
		gotBody, _ = io.ReadAll(r.Body)
		gotHeader, gotPath = r.Header.Clone(), r.URL.Path
		w.WriteHeader(status)
		io.WriteString(w, "the engine's internal answer")
	}))
	defer srv.Close()
	rt, err := workflow.NewHTTPRuntime(srv.URL+"/engine/", secret, workflow.HTTPRuntimeOptions{})
	if err != nil {
		t.Fatal(err)
	}
	at := time.Date(2026, 3, 2, 10, 4, 5, 123456000, time.UTC)
	s := workflow.Stimulus{Tenant: "t1", TaskID: "task-1", BookmarkID: "bm-1", WorkflowInstanceID: "wf-1", OperationID: "op-1",
		ActionKey: models.ActionTimeout, CompletedAt: at}

	t.Run("OK", func(t *testing.T) {
		if err := rt.Deliver(t.Context(), s); err != nil {
			t.Fatal(err)
		}
		mu.Lock()
		defer mu.Unlock()
		if gotPath != "/engine/user-task-stimuli" {
			t.Fatalf("path %s", gotPath)
		}
		if got := gotHeader.Get("X-UserTasks-Signature"); got != workflow.Sign([]byte(secret), gotBody) || !strings.HasPrefix(got, "sha256=") || len(got) != 71 {
			t.Fatalf("signature %q", got)
		}
		if got := gotHeader.Get("Idempotency-Key"); got != "task-1:op-1" {
			t.Fatalf("idempotency key %q", got)
		}
		if got := gotHeader.Get("Content-Type"); got != "application/json" {
			t.Fatalf("content type %q", got)
		}
		var wire map[string]any
		if err := json.Unmarshal(gotBody, &wire); err != nil {
			t.Fatal(err)
		}
		want := map[string]any{"tenant": "t1", "taskId": "task-1", "bookmarkId": "bm-1", "workflowInstanceId": "wf-1",
			"operationId": "op-1", "actionKey": "Timeout", "completedBy": nil, "completedAt": "2026-03-02T10:04:05.123456Z"}
		if len(wire) != len(want) {
			t.Fatalf("body %s", gotBody)
		}
		for k, v := range want {
			if wire[k] != v {
				t.Fatalf("%s = %v, want %v (body %s)", k, wire[k], v, gotBody)
			}
		}
	})
	t.Run("ErrHTTPStatusCarriesNoBody", func(t *testing.T) {
		for _, code := range []int{http.StatusServiceUnavailable, http.StatusBadRequest, http.StatusFound} {
			mu.Lock()
			status = code
			mu.Unlock()
			err := rt.Deliver(t.Context(), s)
			var re *workflow.RuntimeError
			if !errors.As(err, &re) || re.Status != code || workflow.RuntimeErrorCode(err) != "http-"+strconv.Itoa(code) {
				t.Fatalf("status %d: %v", code, err)
			}
			if strings.Contains(err.Error(), "internal answer") {
				t.Fatalf("the error carries the body: %v", err)
			}
		}
	})
	t.Run("ErrTimeout", func(t *testing.T) {
		slow := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			select {
			case <-r.Context().Done():
			case <-time.After(500 * time.Millisecond):
			}
		}))
		defer slow.Close()
		rt, _ := workflow.NewHTTPRuntime(slow.URL, secret, workflow.HTTPRuntimeOptions{Timeout: 100 * time.Millisecond})
		if got := workflow.RuntimeErrorCode(rt.Deliver(t.Context(), s)); got != "timeout" {
			t.Fatalf("code %q, want timeout", got)
		}
	})
	t.Run("ErrConnect", func(t *testing.T) {
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		addr := ln.Addr().String()
		ln.Close()
		rt, _ := workflow.NewHTTPRuntime("http://"+addr, secret, workflow.HTTPRuntimeOptions{})
		if got := workflow.RuntimeErrorCode(rt.Deliver(t.Context(), s)); got != "connect" {
			t.Fatalf("code %q, want connect", got)
		}
	})
	t.Run("ErrConfig", func(t *testing.T) {
		for _, u := range []string{"", "ftp://x", "/relative", "http://x?q=1", "http://"} {
			if _, err := workflow.NewHTTPRuntime(u, secret, workflow.HTTPRuntimeOptions{}); err == nil {
				t.Errorf("runtime URL %q accepted", u)
			}
		}
		if _, err := workflow.NewHTTPRuntime("http://x", "", workflow.HTTPRuntimeOptions{}); err == nil {
			t.Errorf("an empty secret was accepted")
		}
	})
}

func TestRuntimeHTTPBookmarks(t *testing.T) {
	const secret = "s3cret"
	bodies := map[string]string{
		"bm-1":   `{"bookmarkId":"bm-1","task":{"title":"One"}}`,
		"bm 2/x": `{"bookmarkId":"bm 2/x","task":{"title":"Two"}}`,
	}
	var badSigs int
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !workflow.VerifySignature([]byte(secret), []byte(r.URL.RequestURI()), r.Header.Get(workflow.SignatureHeader)) {
			badSigs++
			w.WriteHeader(http.StatusUnauthorized)
			return
		}
		if r.URL.Query().Get("tenant") != "t1" {
			w.WriteHeader(http.StatusBadRequest)
			return
		}
		switch {
		case r.URL.Path == "/api/user-task-bookmarks" && r.URL.Query().Get("cursor") == "":
			if r.URL.Query().Get("limit") != "1" {
				w.WriteHeader(http.StatusBadRequest)
				return
			}
			io.WriteString(w, `{"items":[`+bodies["bm-1"]+`],"nextCursor":"c2"}`)
		case r.URL.Path == "/api/user-task-bookmarks" && r.URL.Query().Get("cursor") == "c2":
			io.WriteString(w, `{"items":[`+bodies["bm 2/x"]+`],"nextCursor":""}`)
		case r.URL.Path == "/api/user-task-bookmarks" && r.URL.Query().Get("cursor") == "loop":
			io.WriteString(w, `{"items":[],"nextCursor":"loop"}`)
		case strings.HasPrefix(r.URL.Path, "/api/user-task-bookmarks/"):
			id := strings.TrimPrefix(r.URL.Path, "/api/user-task-bookmarks/")
			if id == "broken" {
				io.WriteString(w, `not json`)
				return
			}
			body, ok := bodies[id]
			if !ok {
				w.Header().Set("Content-Type", "application/json")
				w.WriteHeader(http.StatusNotFound)
				io.WriteString(w, `{"code":"bookmark-not-found"}`)
				return
			}
			io.WriteString(w, body)
		default:
			http.NotFound(w, r)
		}
	}))
	defer srv.Close()
	rt, err := workflow.NewHTTPRuntime(srv.URL+"/api", secret, workflow.HTTPRuntimeOptions{})
	if err != nil {
		t.Fatal(err)
	}

	t.Run("ListPages", func(t *testing.T) {
		items, next, err := rt.ListBookmarks(t.Context(), "t1", "", 1)
		if err != nil || len(items) != 1 || next != "c2" || string(items[0]) != bodies["bm-1"] {
			t.Fatalf("first page %s, %q, %v", items, next, err)
		}
		items, next, err = rt.ListBookmarks(t.Context(), "t1", next, 1)
		if err != nil || len(items) != 1 || next != "" || string(items[0]) != bodies["bm 2/x"] {
			t.Fatalf("second page %s, %q, %v", items, next, err)
		}
		if _, _, err := rt.ListBookmarks(t.Context(), "t1", "loop", 1); workflow.RuntimeErrorCode(err) != "bad-response" {
			t.Fatalf("a cursor that repeats itself: %v, want bad-response", err)
		}
	})
	t.Run("GetEscapesTheID", func(t *testing.T) {
		found, body, err := rt.GetBookmark(t.Context(), "t1", "bm 2/x")
		if err != nil || !found || string(body) != bodies["bm 2/x"] {
			t.Fatalf("get: %v %s %v", found, body, err)
		}
	})
	t.Run("GetNotFound", func(t *testing.T) {
		found, body, err := rt.GetBookmark(t.Context(), "t1", "gone")
		if err != nil || found || body != nil {
			t.Fatalf("get missing: %v %s %v", found, body, err)
		}
	})
	t.Run("ErrBadResponse", func(t *testing.T) {
		if _, _, err := rt.GetBookmark(t.Context(), "t1", "broken"); workflow.RuntimeErrorCode(err) != "bad-response" {
			t.Fatalf("got %v, want bad-response", err)
		}
	})
	wrongSecret := 0 // requests signed with the wrong secret, the only ones that may fail the check
	t.Run("ErrWrongSecret", func(t *testing.T) {
		other, _ := workflow.NewHTTPRuntime(srv.URL+"/api", "other", workflow.HTTPRuntimeOptions{})
		before := badSigs
		wrongSecret++
		if _, _, err := other.GetBookmark(t.Context(), "t1", "bm-1"); workflow.RuntimeErrorCode(err) != "http-401" || badSigs != before+1 {
			t.Fatalf("got %v, want http-401", err)
		}
	})
	if badSigs != wrongSecret {
		t.Fatalf("%d requests failed the signature check, want only the wrong secret's (%d)", badSigs, wrongSecret)
	}
}

func TestRuntimeStimulusOf(t *testing.T) {
	task := models.Task{ID: "task-1", Tenant: "t1", Workflow: models.WorkflowLink{BookmarkID: "bm", InstanceID: "wf"}}
	at := time.Date(2026, 1, 2, 3, 4, 5, 0, time.FixedZone("x", 3600))
	ann := &models.ParticipantRef{Tenant: "t1", Provider: "default", Type: models.UserParticipant, ID: "ann", DisplayName: "Ann"}
	s, err := workflow.NewStimulus(task, models.Operation{OperationID: "op", Kind: models.OpComplete, ActionKey: "Approve", Actor: ann,
		Payload: json.RawMessage(`{"a":1}`), CreatedAt: at})
	if err != nil {
		t.Fatal(err)
	}
	body, _ := json.Marshal(s)
	want := `{"tenant":"t1","taskId":"task-1","bookmarkId":"bm","workflowInstanceId":"wf","operationId":"op","actionKey":"Approve",` +
		`"data":{"a":1},"completedBy":{"type":"user","provider":"default","id":"ann","displayName":"Ann"},"completedAt":"2026-01-02T02:04:05Z"}`
	if string(body) != want {
		t.Fatalf("stimulus\n got %s\nwant %s", body, want)
	}
	if _, err := workflow.NewStimulus(task, models.Operation{OperationID: "op", Kind: models.OpClaim}); !errors.Is(err, models.ErrCorrupt) {
		t.Fatalf("a claim operation: %v, want corrupt", err)
	}
}
