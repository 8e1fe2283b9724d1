package config

import (
	"fmt"
	"strings"

	"github.com/resilint/resilint/knowledge"
)

// RetryRule declares a team's own retry helper: a function or method that
// calls the operation it is given until it succeeds or gives up.
type RetryRule struct {
	Package string `json:"package" yaml:"package"`
	Type    string `json:"type,omitempty" yaml:"type,omitempty"`
	Func    string `json:"func" yaml:"func"`
	// Attempts is how many attempts the helper makes (0: unknown).
	Attempts int `json:"attempts,omitempty" yaml:"attempts,omitempty"`
	// Op is the index of the operation argument; when unset, every
	// function-valued argument is an operation the helper retries.
	Op *int `json:"op,omitempty" yaml:"op,omitempty"`
	// Ctx is the index of a context argument the helper observes (its
	// waits end when the context is done); unset: none.
	Ctx *int `json:"ctx,omitempty" yaml:"ctx,omitempty"`
}

// BreakerRule declares a team's own circuit-breaker type and the methods
// that run a guarded operation.
type BreakerRule struct {
	Package string   `json:"package" yaml:"package"`
	Type    string   `json:"type" yaml:"type"`
	Methods []string `json:"methods" yaml:"methods"`
}

// BoundRule declares a team's own concurrency bound: a function or method
// whose call bounds the goroutines started after it (a semaphore's acquire,
// a pool's submit).
type BoundRule struct {
	Package string `json:"package" yaml:"package"`
	Type    string `json:"type,omitempty" yaml:"type,omitempty"`
	Func    string `json:"func" yaml:"func"`
}

// addRetryRows adds the RetryHelpers rules to t: each becomes a retry helper
// row, for a method under both the pointer and the value receiver.
func (c *Config) addRetryRows(t *knowledge.Table) error {
	for _, r := range c.RetryHelpers {
		if r.Package == "" || r.Func == "" {
			return fmt.Errorf("retry-helpers rule needs package and func (got package %q, func %q)", r.Package, r.Func)
		}
		name := Key(r.Package, r.Type, r.Func)
		if r.Attempts < 0 {
			return fmt.Errorf("retry-helpers rule %s: attempts must be 0 (unknown) or more", name)
		}
		row := knowledge.RetryHelper{
			Lib: shortName(r), Op: knowledge.None, Ctx: knowledge.None, Policy: knowledge.None, Opts: knowledge.None,
			Attempts: r.Attempts,
		}
		for _, idx := range []struct {
			p    *int
			dst  *int
			what string
		}{{r.Op, &row.Op, "op"}, {r.Ctx, &row.Ctx, "ctx"}} {
			if idx.p == nil {
				continue
			}
			if *idx.p < 0 {
				return fmt.Errorf("retry-helpers rule %s: %s must be a parameter index", name, idx.what)
			}
			*idx.dst = *idx.p
		}
		for _, key := range Keys(r.Package, r.Type, r.Func) {
			t.Retry.Helpers[key] = row
		}
	}
	return nil
}

// shortName is how messages name a configured helper: pkg.Func or
// pkg.Type.Func, with the last element of the import path.
func shortName(r RetryRule) string {
	pkg := r.Package
	if i := strings.LastIndex(pkg, "/"); i >= 0 {
		pkg = pkg[i+1:]
	}
	if r.Type != "" {
		return pkg + "." + strings.TrimPrefix(r.Type, "*") + "." + r.Func
	}
	return pkg + "." + r.Func
}

// addBreakerRows adds the Breakers rules to t: the type becomes a breaker
// type, and each method a guarded call whose operation is its first
// function argument (or, for a method that takes none, a two-step call
// whose done callback closes the guarded region).
func (c *Config) addBreakerRows(t *knowledge.Table) error {
	for _, r := range c.Breakers {
		typ := strings.TrimPrefix(r.Type, "*")
		if r.Package == "" || typ == "" || len(r.Methods) == 0 {
			return fmt.Errorf("breaker rule needs package, type and methods (got package %q, type %q, %d methods)", r.Package, r.Type, len(r.Methods))
		}
		t.Breakers.Types[r.Package+"."+typ] = true
		for _, m := range r.Methods {
			if m == "" {
				return fmt.Errorf("breaker rule %s.%s: empty method name", r.Package, typ)
			}
			for _, key := range Keys(r.Package, typ, m) {
				t.Breakers.Guards[key] = knowledge.Guard{From: knowledge.FromReceiver, Name: knowledge.None, Op: knowledge.Auto}
			}
		}
	}
	return nil
}

// addBoundRows adds the Bounds rules to t: each function or method bounds
// the goroutines started after it, or that call it first.
func (c *Config) addBoundRows(t *knowledge.Table) error {
	for _, r := range c.Bounds {
		if r.Package == "" || r.Func == "" {
			return fmt.Errorf("bound rule needs package and func (got package %q, func %q)", r.Package, r.Func)
		}
		for _, key := range Keys(r.Package, r.Type, r.Func) {
			t.Bounds.Acquires[key] = true
		}
	}
	return nil
}
