package notify

import (
	"context"
	"errors"
	"sync"
	"time"

	"usertasks/directory"
	"usertasks/models"
)

// directoryCache answers the delivery worker's directory questions (a group's members, a
// user's address) from answers at most ttl old. A storm of 1,000 tasks for a group of 50 asks
// the directory about the group and its 50 members, not 50,000 times. Failures are not kept
// (the next row asks again); an unknown group or user is, like an answer. Safe for concurrent
// use.
type directoryCache struct {
	dir directory.Directory
	ttl time.Duration
	now func() time.Time

	mu       sync.Mutex
	groups   map[string]cachedMembers
	contacts map[string]cachedContact
}

// maxCached bounds each map; a full map is emptied (the answers are cheap to ask again).
const maxCached = 10000

type cachedMembers struct {
	members []models.ParticipantRef
	err     error // nil or an error wrapping models.ErrNotFound
	at      time.Time
}

type cachedContact struct {
	email string
	at    time.Time
}

func newDirectoryCache(dir directory.Directory, ttl time.Duration) *directoryCache {
	return &directoryCache{dir: dir, ttl: ttl, now: time.Now, groups: map[string]cachedMembers{}, contacts: map[string]cachedContact{}}
}

// Expand implements directory.Directory.
func (c *directoryCache) Expand(ctx context.Context, tenant string, group models.ParticipantRef) ([]models.ParticipantRef, error) {
	key := tenant + "\x00" + group.Provider + "\x00" + group.ID
	c.mu.Lock()
	hit, ok := c.groups[key]
	c.mu.Unlock()
	if ok && c.now().Sub(hit.at) < c.ttl {
		return hit.members, hit.err
	}
	members, err := c.dir.Expand(ctx, tenant, group)
	if err != nil && !errors.Is(err, models.ErrNotFound) {
		return nil, err
	}
	c.mu.Lock()
	if len(c.groups) >= maxCached {
		clear(c.groups)
	}
	c.groups[key] = cachedMembers{members: members, err: err, at: c.now()}
	c.mu.Unlock()
	return members, err
}

// Search implements directory.Directory (not cached: the worker never searches).
func (c *directoryCache) Search(ctx context.Context, tenant, query string, typ models.ParticipantType, limit int) ([]models.ParticipantRef, error) {
	return c.dir.Search(ctx, tenant, query, typ, limit)
}

// Contact is the user's address from the directory: "" when the directory has no Contact,
// does not know the user, or knows no address; an error only when it could not answer.
func (c *directoryCache) Contact(ctx context.Context, tenant string, user models.ParticipantRef) (string, error) {
	contacts, ok := c.dir.(directory.Contacts)
	if !ok {
		return "", nil
	}
	key := tenant + "\x00" + user.Provider + "\x00" + user.ID
	c.mu.Lock()
	hit, ok := c.contacts[key]
	c.mu.Unlock()
	if ok && c.now().Sub(hit.at) < c.ttl {
		return hit.email, nil
	}
	email, err := contacts.Contact(ctx, tenant, user)
	switch {
	case errors.Is(err, models.ErrNotFound):
		email = ""
	case err != nil:
		return "", err
	}
	c.mu.Lock()
	if len(c.contacts) >= maxCached {
		clear(c.contacts)
	}
	c.contacts[key] = cachedContact{email: email, at: c.now()}
	c.mu.Unlock()
	return email, nil
}
