package repository

import (
	"strings"
	"testing"
	"time"

	"usertasks/models"
)

// Golden scenarios of the browser session store (web_session.go).

func goldenWebSession() models.WebSession {
	return models.WebSession{
		IDHash: strings.Repeat("ab", 32),
		WebIdentity: models.WebIdentity{Tenant: "t1", Provider: models.DefaultProvider, Subject: "u1", DisplayName: "Ursula One",
			Groups: []string{"g1"}, Permissions: []string{"user-tasks:*"}},
		Via: models.WebViaOIDC, RefreshToken: "refresh-secret", IDToken: "id-token-secret", IdleTimeout: 30 * time.Minute,
		CreatedAt: goldenNow.Add(-time.Hour), LastSeenAt: goldenNow, RefreshedAt: goldenNow.Add(-time.Hour),
		ExpiresAt: goldenNow.Add(7 * time.Hour), IdleExpiresAt: goldenNow.Add(30 * time.Minute),
	}
}

func (g *goldenEnv) webSessionRecord(ws models.WebSession) *webSessionRecord {
	row, err := g.s.codec().WebSessionRow(&ws)
	if err != nil {
		panic(err)
	}
	return &webSessionRecord{row}
}

func webSessionScenarios() []goldenScenario {
	return []goldenScenario{
		{"create-web-session", func(t *testing.T, g *goldenEnv) {
			ws, err := g.s.CreateWebSession(g.ctx, goldenWebSession(), 8*time.Hour)
			goldenOK(t, err)
			if !ws.ExpiresAt.Equal(goldenNow.Add(8 * time.Hour)) {
				t.Fatalf("expires %v", ws.ExpiresAt)
			}
		}},
		{"web-session", func(t *testing.T, g *goldenEnv) {
			g.answer(fakeScript{Rows: goldenRows{"user_task_web_sessions": {{g.webSessionRecord(goldenWebSession())}}}.rows})
			ws, err := g.s.WebSession(g.ctx, strings.Repeat("ab", 32))
			goldenOK(t, err)
			if ws.RefreshToken != "refresh-secret" || len(ws.Groups) != 1 {
				t.Fatalf("got %+v", ws)
			}
		}},
		{"web-session-touch", func(t *testing.T, g *goldenEnv) {
			seen := goldenWebSession()
			seen.LastSeenAt = goldenNow.Add(-2 * time.Minute)
			g.answer(fakeScript{Rows: goldenRows{"user_task_web_sessions": {{g.webSessionRecord(seen)}}}.rows})
			ws, err := g.s.WebSession(g.ctx, seen.IDHash)
			goldenOK(t, err)
			if !ws.LastSeenAt.Equal(goldenNow) {
				t.Fatalf("last seen %v", ws.LastSeenAt)
			}
		}},
		{"web-session-not-found", func(t *testing.T, g *goldenEnv) {
			_, err := g.s.WebSession(g.ctx, strings.Repeat("cd", 32))
			goldenIs(t, err, models.ErrNotFound)
		}},
		{"delete-web-session", func(t *testing.T, g *goldenEnv) {
			goldenOK(t, g.s.DeleteWebSession(g.ctx, strings.Repeat("ab", 32)))
		}},
		{"end-web-session", func(t *testing.T, g *goldenEnv) {
			g.answer(fakeScript{Rows: goldenRows{"user_task_web_sessions": {{g.webSessionRecord(goldenWebSession())}}}.rows})
			ws, err := g.s.EndWebSession(g.ctx, strings.Repeat("ab", 32))
			goldenOK(t, err)
			if ws.RefreshToken != "refresh-secret" || ws.IDToken != "id-token-secret" {
				t.Fatalf("got %+v", ws)
			}
		}},
		{"end-subject-web-sessions", func(t *testing.T, g *goldenEnv) {
			g.answer(fakeScript{Rows: goldenRows{"user_task_web_sessions": {{g.webSessionRecord(goldenWebSession())}}}.rows})
			ended, err := g.s.EndSubjectWebSessions(g.ctx, "t1", models.DefaultProvider, "u1")
			goldenOK(t, err)
			if len(ended) != 1 || ended[0].RefreshToken != "refresh-secret" {
				t.Fatalf("ended %+v", ended)
			}
		}},
		{"set-web-session-time-zone", func(t *testing.T, g *goldenEnv) {
			goldenOK(t, g.s.SetWebSessionTimeZone(g.ctx, strings.Repeat("ab", 32), "Europe/Berlin"))
		}},
		{"update-web-session-identity", func(t *testing.T, g *goldenEnv) {
			id := goldenWebSession().WebIdentity
			id.Manager = true
			goldenOK(t, g.s.UpdateWebSessionIdentity(g.ctx, strings.Repeat("ab", 32), id, models.WebTokens{Refresh: "rotated-refresh", ID: "new-id-token"}))
		}},
		{"update-web-session-identity-ended", func(t *testing.T, g *goldenEnv) {
			g.answer(fakeScript{Affected: goldenAffected{"UPDATE user_task_web_sessions": {0}}.rows})
			err := g.s.UpdateWebSessionIdentity(g.ctx, strings.Repeat("ab", 32), goldenWebSession().WebIdentity, models.WebTokens{})
			goldenIs(t, err, models.ErrNotFound)
		}},
		{"purge-web-sessions", func(t *testing.T, g *goldenEnv) {
			g.answer(fakeScript{Affected: goldenAffected{"DELETE user_task_web_sessions": {2, 1}}.rows})
			n, err := g.s.PurgeWebSessions(g.ctx)
			goldenOK(t, err)
			if n != 3 {
				t.Fatalf("purged %d", n)
			}
		}},
	}
}
