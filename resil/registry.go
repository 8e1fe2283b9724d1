package resil

import (
	"sync"
	"sync/atomic"
)

// The process-wide breaker registry: a copy-on-write map, so lookups are a
// pointer load and a map read (no lock, no allocation) and only the first
// use of a name takes the mutex.
var registry struct {
	mu sync.Mutex
	m  atomic.Pointer[map[string]*Breaker]
}

// BreakerFor returns the process-wide breaker for the named dependency,
// creating it on first use. It is safe for concurrent use and cheap enough
// to call on every request (resil.BreakerFor("payments").Execute(...)).
//
// The first caller's options win: later calls with the same name get the
// existing breaker and their options are ignored. Configure each name in
// one place (for example a package-level variable).
func BreakerFor(name string, opts ...BreakerOption) *Breaker {
	if m := registry.m.Load(); m != nil {
		if b, ok := (*m)[name]; ok {
			return b
		}
	}
	registry.mu.Lock()
	defer registry.mu.Unlock()
	old := registry.m.Load()
	if old != nil {
		if b, ok := (*old)[name]; ok {
			return b
		}
	}
	next := make(map[string]*Breaker, 1+lenMap(old))
	if old != nil {
		for k, v := range *old {
			next[k] = v
		}
	}
	b := NewBreaker(name, opts...)
	next[name] = b
	registry.m.Store(&next)
	return b
}

func lenMap(m *map[string]*Breaker) int {
	if m == nil {
		return 0
	}
	return len(*m)
}
