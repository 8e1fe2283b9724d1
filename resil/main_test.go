package resil

import (
	"context"
	"os"
	"sync"
	"testing"
	"time"

	"github.com/resilint/resilint/resil/internal/leaktest"
)

// TestMain fails the run if any test leaves a goroutine behind.
func TestMain(m *testing.M) { os.Exit(leaktest.Main(m)) }

// fakeClock is a manual clock whose Sleep returns at once after moving time
// forward, so timing logic is tested without waiting.
type fakeClock struct {
	mu    sync.Mutex
	now   time.Time
	slept []time.Duration
}

// newFakeClock starts at the real time, so context deadlines computed from
// it also make sense to the real timers behind context.WithDeadline.
func newFakeClock() *fakeClock { return &fakeClock{now: time.Now()} }

func (c *fakeClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *fakeClock) Advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(d)
}

func (c *fakeClock) Sleep(ctx context.Context, d time.Duration) error {
	if ctx.Err() != nil {
		return context.Cause(ctx)
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.slept = append(c.slept, d)
	c.now = c.now.Add(max(d, 0))
	return nil
}

func (c *fakeClock) Slept() []time.Duration {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]time.Duration(nil), c.slept...)
}
