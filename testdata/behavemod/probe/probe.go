// Package probe measures how many calls run at once.
package probe

import (
	"context"
	"sync/atomic"
	"time"
)

// Probe counts the calls of Work in flight and remembers the most.
type Probe struct {
	cur, peak atomic.Int64
	calls     atomic.Int64
}

// Work is one unit of work: it takes a few milliseconds, and fails with
// the context's error when ctx is done.
func (p *Probe) Work(ctx context.Context, item int) error {
	p.calls.Add(1)
	defer p.Enter()()
	if err := ctx.Err(); err != nil {
		return err
	}
	time.Sleep(5 * time.Millisecond)
	return nil
}

// Enter counts one more in flight until the returned function is called.
func (p *Probe) Enter() func() {
	n := p.cur.Add(1)
	for {
		old := p.peak.Load()
		if n <= old || p.peak.CompareAndSwap(old, n) {
			break
		}
	}
	return func() { p.cur.Add(-1) }
}

// Peak is the most calls of Work that ran at once.
func (p *Probe) Peak() int { return int(p.peak.Load()) }

// Calls is how many calls of Work there were.
func (p *Probe) Calls() int { return int(p.calls.Load()) }
