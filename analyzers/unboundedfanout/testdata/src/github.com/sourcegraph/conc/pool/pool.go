// Package pool is a stub of github.com/sourcegraph/conc/pool v0.3.0 with
// its real signatures, for tests.
package pool

type Pool struct{ limit int }

func New() *Pool { return &Pool{} }

func (p *Pool) Go(f func()) { go f() }

func (p *Pool) Wait() {}

func (p *Pool) WithMaxGoroutines(n int) *Pool { p.limit = n; return p }
