package handlers_test

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"testing"

	"usertasks/models"
	"usertasks/testfactory"
)

// The /me notification routes in TestAttackCrossTenantEveryRoute: t2's manager "boss" — the
// same user id as t1's boss — reaches nothing of t1's boss: not the list, not their reads,
// not their preferences.
func init() {
	t1Boss := testfactory.User("t1", "boss")
	crossTenantNoID["GET /api/v1/me/notifications"] = func(t *testing.T, f *attackFixture, v crossTenantVictim) {
		n := testfactory.ShowNotification(context.Background(), t, f.store, v.task, models.TriggerTaskAssigned, "boss", nil)
		f.wantNoLeak(t, "/api/v1/me/notifications", v)
		f.wantNoLeak(t, "/api/v1/me/notifications?unread=true", v)
		if status, body := f.apiCall(t, http.MethodGet, "/api/v1/me/notifications", v.token, nil); status != http.StatusOK || strings.Contains(string(body), n.ID) {
			t.Errorf("t2's boss lists t1's boss's notification: %d %s", status, body)
		}
	}
	crossTenantNoID["POST /api/v1/me/notifications/read"] = func(t *testing.T, f *attackFixture, v crossTenantVictim) {
		n := testfactory.ShowNotification(context.Background(), t, f.store, v.task, models.TriggerDueSoon, "boss", nil)
		for _, body := range []map[string]any{{"ids": []string{n.ID}}, {"all": true}} {
			if status, raw := f.apiCall(t, http.MethodPost, "/api/v1/me/notifications/read", v.token, body); status != http.StatusNoContent {
				t.Errorf("mark read %v: %d %s", body, status, raw)
			}
		}
		page, err := f.store.Notifications(context.Background(), models.NotificationQuery{Tenant: "t1", Recipient: t1Boss, UnreadOnly: true})
		if err != nil {
			t.Fatal(err)
		}
		for _, it := range page.Items {
			if it.ID == n.ID {
				return
			}
		}
		t.Errorf("t2's boss marked t1's boss's notification read")
	}
	crossTenantNoID["GET /api/v1/me/notification-preferences"] = func(t *testing.T, f *attackFixture, v crossTenantVictim) {
		f.wantNoLeak(t, "/api/v1/me/notification-preferences", v)
	}
	crossTenantNoID["PUT /api/v1/me/notification-preferences"] = func(t *testing.T, f *attackFixture, v crossTenantVictim) {
		if status, raw := f.apiCall(t, http.MethodPut, "/api/v1/me/notification-preferences", v.token, map[string]any{"digest": "daily", "email": map[string]bool{"task-available": true}}); status != http.StatusOK {
			t.Fatalf("t2's own preferences: %d %s", status, raw)
		}
		p, err := f.store.Person(context.Background(), "t1", t1Boss)
		if errors.Is(err, models.ErrNotFound) {
			return
		}
		if err != nil || p.Preferences.Digest == models.DigestDaily || p.Preferences.EmailOn(models.TriggerTaskAvailable) {
			t.Errorf("t2's boss changed t1's boss's preferences: %+v, %v", p.Preferences, err)
		}
	}
}
