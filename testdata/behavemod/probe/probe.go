// Package probe measures how many calls run at once.
package probe

import (
	"context"
	"net/http"
	"strconv"
	"sync/atomic"
	"time"
)

// Probe counts the calls of Work in flight and remembers the most.
type Probe struct {
	// URL, when set, is the service Work calls for each item (a test
	// server): every goroutine that runs Work reaches the same remote
	// dependency, which is what makes a fan-out of them one.
	URL string

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
	if p.URL == "" {
		return nil
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, p.URL+"/items/"+strconv.Itoa(item), nil)
	if err != nil {
		return err
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return err
	}
	return resp.Body.Close()
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
