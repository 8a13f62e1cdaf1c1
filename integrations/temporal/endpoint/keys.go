package endpoint

import "sync"

// maxKeys bounds the Idempotency-Keys remembered; the oldest are forgotten first. A key
// forgotten (or lost with a restart) is still safe: the step no longer waits once its workflow
// took the decision, and the workflow takes only the first signal of a step.
const maxKeys = 10_000

// deliveredKeys remembers the Idempotency-Keys of stimuli signalled or being signalled, so a
// repeat delivery is acknowledged without a second signal.
type deliveredKeys struct {
	mu    sync.Mutex
	seen  map[string]bool
	order []string
}

// claim reports whether key is new, and if so remembers it.
func (k *deliveredKeys) claim(key string) bool {
	k.mu.Lock()
	defer k.mu.Unlock()
	if k.seen[key] {
		return false
	}
	if k.seen == nil {
		k.seen = make(map[string]bool)
	}
	k.seen[key] = true
	k.order = append(k.order, key)
	if len(k.order) > maxKeys {
		delete(k.seen, k.order[0])
		k.order = k.order[1:]
	}
	return true
}

// release forgets a key whose signal failed, so User Tasks' retry is signalled.
func (k *deliveredKeys) release(key string) {
	k.mu.Lock()
	defer k.mu.Unlock()
	delete(k.seen, key)
}
