// Package semaphore is a stand-in for golang.org/x/sync/semaphore.
package semaphore

import "context"

// Weighted provides a way to bound concurrent access to a resource.
type Weighted struct{ ch chan struct{} }

// NewWeighted creates a new weighted semaphore.
func NewWeighted(n int64) *Weighted { return &Weighted{ch: make(chan struct{}, n)} }

// Acquire acquires the semaphore with a weight of n.
func (s *Weighted) Acquire(ctx context.Context, n int64) error {
	for i := int64(0); i < n; i++ {
		select {
		case s.ch <- struct{}{}:
		case <-ctx.Done():
			return ctx.Err()
		}
	}
	return nil
}

// TryAcquire acquires the semaphore without blocking.
func (s *Weighted) TryAcquire(n int64) bool {
	select {
	case s.ch <- struct{}{}:
		return true
	default:
		return false
	}
}

// Release releases the semaphore with a weight of n.
func (s *Weighted) Release(n int64) {
	for i := int64(0); i < n; i++ {
		<-s.ch
	}
}
