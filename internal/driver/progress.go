package driver

import (
	"fmt"
	"io"
	"os"
	"sync"
	"time"
)

// progress prints "resilint: analysed N of M packages" on one line of a
// terminal, rewritten as results arrive. A nil *progress prints nothing:
// there is none when standard error is not a terminal, or with -json (whose
// output a program reads).
type progress struct {
	w     io.Writer
	mu    sync.Mutex
	n     int
	total int
	// expected are the root units' IDs, once go list has told them, and
	// arrived the units seen: a unit of a dependency that prints as its
	// package's root unit also does (see roots.go) is counted only when
	// it is one of them, and each once.
	expected map[string]bool
	arrived  map[string]bool
	deps     int // dependencies analysed for their facts
	last     time.Time
	shown    bool
	ended    bool
}

// newProgress returns the run's progress line, or nil.
func (d *run) newProgress() *progress {
	if d.json || d.noProgress {
		return nil
	}
	for _, o := range d.outputs {
		if o.format == formatJSON && o.path == "" {
			return nil
		}
	}
	f, ok := d.stderr.(*os.File)
	if !ok || !isTerminal(f) {
		return nil
	}
	return &progress{w: f}
}

func (p *progress) setTotal(ids []string) {
	if p == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.expected = map[string]bool{}
	for _, id := range ids {
		p.expected[id] = true
	}
	p.total = len(p.expected)
	p.n = 0
	for id := range p.arrived {
		if p.expected[id] {
			p.n++
		}
	}
	p.print(true)
}

func (p *progress) setDeps(n int) {
	if p == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if n != p.deps {
		p.deps = n
		p.print(false)
	}
}

// add counts the unit id as analysed.
func (p *progress) add(id string) {
	if p == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.arrived == nil {
		p.arrived = map[string]bool{}
	}
	if p.arrived[id] {
		return
	}
	p.arrived[id] = true
	if p.expected == nil || p.expected[id] {
		p.n++
	}
	p.print(false)
}

// print rewrites the line, at most ten times a second unless forced.
func (p *progress) print(force bool) {
	if p.ended || !force && time.Since(p.last) < 100*time.Millisecond {
		return
	}
	p.last = time.Now()
	p.shown = true
	line := fmt.Sprintf("resilint: analysed %d packages", p.n)
	if p.total > 0 {
		line = fmt.Sprintf("resilint: analysed %d of %d packages", min(p.n, p.total), p.total)
	}
	if p.deps > 0 {
		line += fmt.Sprintf(" (and %d dependencies for their facts)", p.deps)
	}
	fmt.Fprintf(p.w, "\r%s\x1b[K", line)
}

// done erases the line, for the findings that follow.
func (p *progress) done() {
	if p == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.shown && !p.ended {
		fmt.Fprint(p.w, "\r\x1b[K")
	}
	p.ended = true
}
