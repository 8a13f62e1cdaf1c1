package e2e

import (
	"bytes"
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"

	"go.temporal.io/sdk/client"

	"usertasks/integrations/temporal/endpoint"
	"usertasks/integrations/temporal/usertask"
)

func sign(b []byte) string {
	mac := hmac.New(sha256.New, []byte(runtimeSecret))
	mac.Write(b)
	return "sha256=" + hex.EncodeToString(mac.Sum(nil))
}

// escapeSegment escapes a bookmark id as User Tasks sends it: every byte but the unreserved
// characters, and the dot-segments.
func escapeSegment(id string) string {
	if id == "." || id == ".." {
		return strings.ReplaceAll(id, ".", "%2E")
	}
	var b strings.Builder
	for _, c := range []byte(id) {
		if c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || strings.IndexByte("-._~", c) >= 0 {
			b.WriteByte(c)
		} else {
			b.WriteString("%" + strings.ToUpper(hex.EncodeToString([]byte{c})))
		}
	}
	return b.String()
}

// get sends a signed GET to the endpoint as User Tasks does.
func get(t *testing.T, base, target string, signed bool) (int, map[string]any) {
	t.Helper()
	req, err := http.NewRequest(http.MethodGet, base+target, nil)
	if err != nil {
		t.Fatal(err)
	}
	u, _ := url.Parse(base)
	if signed {
		req.Header.Set("X-UserTasks-Signature", sign([]byte(u.EscapedPath()+target)))
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	var body map[string]any
	_ = json.Unmarshal(raw, &body)
	return resp.StatusCode, body
}

// TestEndpointAnswersReconciliation: the listing shows each waiting step with its projection;
// a lookup answers 200 while the step waits and the exact 404 bookmark-not-found only once the
// run is gone; an unsigned or wrongly signed call, another tenant and an unreachable Temporal
// never get that 404.
func TestEndpointAnswersReconciliation(t *testing.T) {
	s := newStack(t, false)
	base := "http://" + s.addr + "/temporal%20rt"
	runs := map[string]string{}
	for _, id := range hostileIDs {
		run := s.start(t, id, approvalInput{Title: "Lookup " + id})
		s.ut.taskOf(t, id)
		runs[id] = run.GetRunID()
	}

	eventually(t, 30*time.Second, "every waiting step listed", func() bool {
		code, body := get(t, base, "/user-task-bookmarks?tenant="+tenant+"&limit=2", true)
		if code != http.StatusOK {
			t.Fatalf("list: %d %v", code, body)
		}
		seen := 0
		for {
			for _, it := range body["items"].([]any) {
				if _, ok := runs[it.(map[string]any)["workflowInstanceId"].(string)]; ok {
					seen++
				}
			}
			next, _ := body["nextCursor"].(string)
			if next == "" {
				break
			}
			code, body = get(t, base, "/user-task-bookmarks?tenant="+tenant+"&limit=2&cursor="+url.QueryEscape(next), true)
			if code != http.StatusOK {
				t.Fatalf("list page: %d", code)
			}
		}
		return seen == len(hostileIDs)
	})

	for id, runID := range runs {
		bookmark, err := usertask.BookmarkID(id, runID, "approve")
		if err != nil {
			t.Fatal(err)
		}
		target := "/user-task-bookmarks/" + escapeSegment(bookmark) + "?tenant=" + tenant
		if code, body := get(t, base, target, true); code != http.StatusOK || body["bookmarkId"] != bookmark {
			t.Fatalf("lookup %q while waiting: %d %v", bookmark, code, body)
		}
		if code, body := get(t, base, target, false); code != http.StatusUnauthorized || body["code"] == "bookmark-not-found" {
			t.Fatalf("unsigned lookup: %d %v", code, body)
		}
		other := "/user-task-bookmarks/" + escapeSegment(bookmark) + "?tenant=globex"
		if code, body := get(t, base, other, true); code != http.StatusNotFound || body["code"] == "bookmark-not-found" {
			t.Fatalf("lookup for another tenant: %d %v (must not be the exact not-found)", code, body)
		}
	}

	// Gone: terminate one run; its lookup is now the exact answer.
	gone := hostileIDs[0]
	if err := s.client.TerminateWorkflow(context.Background(), gone, runs[gone], "test"); err != nil {
		t.Fatal(err)
	}
	bookmark, _ := usertask.BookmarkID(gone, runs[gone], "approve")
	if code, body := get(t, base, "/user-task-bookmarks/"+escapeSegment(bookmark)+"?tenant="+tenant, true); code != http.StatusNotFound || body["code"] != "bookmark-not-found" {
		t.Fatalf("lookup of a terminated run: %d %v", code, body)
	}

	// Temporal unreachable: ambiguous, never the exact not-found.
	lazy, err := client.NewLazyClient(client.Options{HostPort: "127.0.0.1:1"})
	if err != nil {
		t.Fatal(err)
	}
	defer lazy.Close()
	down := httptest.NewServer(endpoint.New(endpoint.Config{Temporal: lazy, Tenant: tenant, Secret: []byte(runtimeSecret), CallTimeout: 2 * time.Second}))
	defer down.Close()
	bookmark, _ = usertask.BookmarkID(hostileIDs[1], runs[hostileIDs[1]], "approve")
	if code, body := get(t, down.URL, "/user-task-bookmarks/"+escapeSegment(bookmark)+"?tenant="+tenant, true); code != http.StatusServiceUnavailable {
		t.Fatalf("lookup with Temporal down: %d %v, want 503", code, body)
	}
}

// TestEndpointRefusesForgedStimuli: a stimulus with a bad signature, for another tenant, or
// for a bookmark this integration did not make is refused and never signals.
func TestEndpointRefusesForgedStimuli(t *testing.T) {
	s := newStack(t, false)
	base := "http://" + s.addr + "/temporal%20rt"
	run := s.start(t, "forged", approvalInput{Title: "Forged"})
	s.ut.taskOf(t, "forged")
	bookmark, _ := usertask.BookmarkID("forged", run.GetRunID(), "approve")
	post := func(body map[string]any, signature string) int {
		raw, _ := json.Marshal(body)
		req, _ := http.NewRequest(http.MethodPost, base+"/user-task-stimuli", bytes.NewReader(raw))
		if signature == "" {
			signature = sign(raw)
		}
		req.Header.Set("X-UserTasks-Signature", signature)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		return resp.StatusCode
	}
	stim := map[string]any{"tenant": tenant, "taskId": "t", "bookmarkId": bookmark, "workflowInstanceId": "forged",
		"operationId": "op", "actionKey": "approve", "completedBy": map[string]any{"id": "mallory"}, "completedAt": time.Now()}
	if code := post(stim, "sha256="+strings.Repeat("00", 32)); code != http.StatusUnauthorized {
		t.Fatalf("bad signature: %d", code)
	}
	other := map[string]any{}
	for k, v := range stim {
		other[k] = v
	}
	other["tenant"] = "globex"
	if code := post(other, ""); code != http.StatusUnprocessableEntity {
		t.Fatalf("another tenant: %d", code)
	}
	other["tenant"], other["workflowInstanceId"] = tenant, "someone else"
	if code := post(other, ""); code != http.StatusUnprocessableEntity {
		t.Fatalf("a bookmark of another workflow: %d", code)
	}
	if st := s.endpoint.Stats(); st.Signalled != 0 || st.Refused != 3 {
		t.Fatalf("stats %+v: want nothing signalled and 3 refusals", st)
	}
}
