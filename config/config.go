// Package config holds resilint's one configuration type. The command fills
// it from flags and a .resilint.yml file, the golangci-lint plugin from its
// settings; analyzers receive it explicitly and read it when they run.
package config

import (
	"fmt"
	"strings"
	"sync"
	"time"

	"golang.org/x/tools/go/analysis"

	"github.com/resilint/resilint/knowledge"
)

// Defaults.
const (
	// DefaultRequestBudget is the longest constant timeout that detachedctx
	// accepts on a request path.
	DefaultRequestBudget = 10 * time.Second
	// DefaultFanoutLimit is the largest constant trip count of a loop that
	// unboundedfanout treats as small.
	DefaultFanoutLimit = 16
	// DefaultMaxHalfOpen is the largest number of half-open probes that
	// globalbreaker accepts.
	DefaultMaxHalfOpen = 10
)

// DefaultExcludeDirs are the directories excluded by default, golangci-lint's
// default exclusions: vendored third-party code, Go's builtin pseudo-package
// and example programs.
var DefaultExcludeDirs = []string{"third_party", "builtin", "examples"}

// Excluded reports whether the package at pkgPath, in the module at
// modPath ("" when unknown), is in an excluded directory.
func (c *Config) Excluded(pkgPath, modPath string) bool {
	rel := pkgPath
	if modPath != "" {
		if pkgPath == modPath {
			return false
		}
		if r, ok := strings.CutPrefix(pkgPath, modPath+"/"); ok {
			rel = r
		}
	}
	dirs := c.ExcludeDirs
	if dirs == nil {
		dirs = DefaultExcludeDirs
	}
	for _, elem := range strings.Split(rel, "/") {
		for _, d := range dirs {
			if elem == d {
				return true
			}
		}
	}
	return false
}

// Config is resilint's configuration. The zero value is not ready to use;
// call [Default].
type Config struct {
	// Disable lists analyzers that do not run; Enable, when not empty, lists
	// the only analyzers that run.
	Disable []string `json:"disable,omitempty" yaml:"disable,omitempty"`
	Enable  []string `json:"enable,omitempty" yaml:"enable,omitempty"`

	// Tests reports findings in _test.go files too. Test packages are always
	// analyzed so that facts stay complete.
	Tests bool `json:"tests,omitempty" yaml:"tests,omitempty"`
	// Generated reports findings in generated files too.
	Generated bool `json:"generated,omitempty" yaml:"generated,omitempty"`
	// ExcludeDirs are directory names whose packages are analysed but not
	// reported, at any depth below the module root, as golangci-lint
	// excludes them by default (nil: DefaultExcludeDirs; empty: none).
	ExcludeDirs []string `json:"exclude-dirs,omitempty" yaml:"exclude-dirs,omitempty"`

	// RequestBudget is the longest constant timeout detachedctx accepts on a
	// request path. When set explicitly (BudgetEverywhere), the check applies
	// to every function that receives a caller's context.
	RequestBudget    Duration `json:"request-budget,omitempty" yaml:"request-budget,omitempty"`
	BudgetEverywhere bool     `json:"-" yaml:"-"`

	// FanoutLimit is the largest constant loop trip count that is not
	// fan-out; FanoutFixLimit is the limit that fixes insert.
	FanoutLimit    int `json:"fanout-limit,omitempty" yaml:"fanout-limit,omitempty"`
	FanoutFixLimit int `json:"fanout-fix-limit,omitempty" yaml:"fanout-fix-limit,omitempty"`

	// MaxHalfOpen is the largest number of half-open probes a breaker may let
	// through.
	MaxHalfOpen int `json:"max-half-open,omitempty" yaml:"max-half-open,omitempty"`

	// Outbound adds a team's own outbound wrappers to the knowledge table.
	Outbound []OutboundRule `json:"outbound,omitempty" yaml:"outbound,omitempty"`
	// RetryHelpers adds a team's own retry helpers (functions that retry the
	// operation they are given).
	RetryHelpers []RetryRule `json:"retry-helpers,omitempty" yaml:"retry-helpers,omitempty"`
	// Breakers adds a team's own circuit-breaker types.
	Breakers []BreakerRule `json:"breakers,omitempty" yaml:"breakers,omitempty"`
	// Bounds adds a team's own concurrency bounds (semaphores, pools).
	Bounds []BoundRule `json:"bounds,omitempty" yaml:"bounds,omitempty"`

	// NoNolint turns off the analyzers' own handling of //nolint directives;
	// the command sets it because it applies directives itself (and can then
	// report unused ones).
	NoNolint bool `json:"-" yaml:"-"`

	once  sync.Once
	table *knowledge.Table
	err   error

	mu   sync.Mutex
	memo map[string]*analysis.Analyzer
}

// OutboundRule declares a team's own function or method as an outbound call.
type OutboundRule struct {
	// Package is the import path; Type the receiver type name for a method
	// (empty for a function); Func the function or method name.
	Package string `json:"package" yaml:"package"`
	Type    string `json:"type,omitempty" yaml:"type,omitempty"`
	Func    string `json:"func" yaml:"func"`
	// Ctx is the index of the context.Context parameter, or -1 when the call
	// takes none (then every call is reported as having no deadline).
	Ctx *int `json:"ctx,omitempty" yaml:"ctx,omitempty"`
	// Kind is one of http, grpc, dial, tls, sql, custom (default custom).
	Kind string `json:"kind,omitempty" yaml:"kind,omitempty"`
}

// Duration is a time.Duration written as "10s" in configuration.
type Duration time.Duration

func (d Duration) String() string { return time.Duration(d).String() }

// MarshalText implements encoding.TextMarshaler.
func (d Duration) MarshalText() ([]byte, error) { return []byte(d.String()), nil }

// UnmarshalText implements encoding.TextUnmarshaler.
func (d *Duration) UnmarshalText(b []byte) error {
	v, err := time.ParseDuration(string(b))
	if err != nil {
		return fmt.Errorf("invalid duration %q (write it like 10s or 1m30s)", b)
	}
	if v <= 0 {
		return fmt.Errorf("invalid duration %q: must be positive", b)
	}
	*d = Duration(v)
	return nil
}

// Default returns a configuration with every default set.
func Default() *Config {
	return &Config{
		ExcludeDirs:    append([]string(nil), DefaultExcludeDirs...),
		RequestBudget:  Duration(DefaultRequestBudget),
		FanoutLimit:    DefaultFanoutLimit,
		FanoutFixLimit: DefaultFanoutLimit,
		MaxHalfOpen:    DefaultMaxHalfOpen,
	}
}

// Table returns the knowledge table: the built-in rows plus the rows this
// configuration adds. It is built once, on first use (when analysis starts,
// after flags and files were read).
func (c *Config) Table() *knowledge.Table {
	c.once.Do(func() {
		t := knowledge.Default()
		for _, r := range c.Outbound {
			keys, row, err := r.row()
			if err != nil {
				if c.err == nil {
					c.err = err
				}
				continue
			}
			for _, key := range keys {
				t.Outbound[key] = row
			}
		}
		if err := c.addRetryRows(t); err != nil && c.err == nil {
			c.err = err
		}
		if err := c.addBreakerRows(t); err != nil && c.err == nil {
			c.err = err
		}
		if err := c.addBoundRows(t); err != nil && c.err == nil {
			c.err = err
		}
		c.table = t
	})
	return c.table
}

// Err reports an invalid rule found while building the table.
func (c *Config) Err() error {
	c.Table()
	return c.err
}

// Key returns the FullName spelling of a function or method in a rule.
func Key(pkg, typ, fn string) string {
	if typ == "" {
		return pkg + "." + fn
	}
	if typ[0] == '*' {
		return "(*" + pkg + "." + typ[1:] + ")." + fn
	}
	return "(" + pkg + "." + typ + ")." + fn
}

// Keys returns the FullName spellings a rule matches: for a method, both the
// pointer and the value receiver, so that users need not know which one the
// method is declared on.
func Keys(pkg, typ, fn string) []string {
	if typ == "" {
		return []string{Key(pkg, "", fn)}
	}
	typ = strings.TrimPrefix(typ, "*")
	return []string{Key(pkg, "*"+typ, fn), Key(pkg, typ, fn)}
}

func (r OutboundRule) row() ([]string, knowledge.Outbound, error) {
	if r.Package == "" || r.Func == "" {
		return nil, knowledge.Outbound{}, fmt.Errorf("outbound rule needs package and func (got package %q, func %q)", r.Package, r.Func)
	}
	kind := knowledge.Custom
	if r.Kind != "" {
		k, err := knowledge.ParseKind(r.Kind)
		if err != nil {
			return nil, knowledge.Outbound{}, fmt.Errorf("outbound rule %s: %v", Key(r.Package, r.Type, r.Func), err)
		}
		kind = k
	}
	ctx := knowledge.None
	if r.Ctx != nil {
		ctx = *r.Ctx
	}
	if ctx < knowledge.None {
		return nil, knowledge.Outbound{}, fmt.Errorf("outbound rule %s: ctx must be -1 or a parameter index", Key(r.Package, r.Type, r.Func))
	}
	row := knowledge.NewOutbound(kind, ctx)
	return Keys(r.Package, r.Type, r.Func), row, nil
}

// Memo returns the analyzer built for key by this configuration, building it
// on first use. Helper passes and analyzers are built once per configuration
// so that every analyzer that requires a pass shares one instance.
func (c *Config) Memo(key string, build func() *analysis.Analyzer) *analysis.Analyzer {
	c.mu.Lock()
	a, ok := c.memo[key]
	c.mu.Unlock()
	if ok {
		return a
	}
	// Build without the lock: building an analyzer builds the passes it
	// requires through Memo too.
	a = build()
	c.mu.Lock()
	defer c.mu.Unlock()
	if prev, ok := c.memo[key]; ok {
		return prev
	}
	if c.memo == nil {
		c.memo = map[string]*analysis.Analyzer{}
	}
	c.memo[key] = a
	return a
}
