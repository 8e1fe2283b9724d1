package config

import (
	"strings"
	"testing"
	"time"
)

func TestDecodeYAML(t *testing.T) {
	c := Default()
	err := c.DecodeYAML([]byte(`
disable: [detachedctx]
tests: true
generated: true
request-budget: 3s
fanout-limit: 8
fanout-fix-limit: 4
max-half-open: 2
outbound:
  - package: example.com/rpc
    type: "*Client"
    func: Send
    ctx: 1
    kind: grpc
retry-helpers:
  - package: example.com/retry
    func: Do
    attempts: 3
breakers:
  - package: example.com/cb
    type: Breaker
    methods: [Run, RunCtx]
bounds:
  - package: example.com/pool
    type: Pool
    func: Submit
`), ".resilint.yml")
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Disable) != 1 || !c.Tests || !c.Generated || time.Duration(c.RequestBudget) != 3*time.Second || !c.BudgetEverywhere ||
		c.FanoutLimit != 8 || c.FanoutFixLimit != 4 || c.MaxHalfOpen != 2 {
		t.Errorf("decoded %+v", c)
	}
	if len(c.Outbound) != 1 || c.Outbound[0].Type != "*Client" || *c.Outbound[0].Ctx != 1 || c.Outbound[0].Kind != "grpc" {
		t.Errorf("outbound %+v", c.Outbound)
	}
	if len(c.RetryHelpers) != 1 || c.RetryHelpers[0].Attempts != 3 || len(c.Breakers) != 1 || len(c.Breakers[0].Methods) != 2 || len(c.Bounds) != 1 {
		t.Errorf("rules %+v %+v %+v", c.RetryHelpers, c.Breakers, c.Bounds)
	}
	if _, ok := c.Table().Outbound["(*example.com/rpc.Client).Send"]; !ok {
		t.Error("the outbound rule is not in the table")
	}
}

func TestDecodeYAMLKeepsDefaults(t *testing.T) {
	c := Default()
	if err := c.DecodeYAML([]byte("# only a comment\n"), "f"); err != nil {
		t.Fatal(err)
	}
	if err := c.DecodeYAML([]byte("tests: true\n"), "f"); err != nil {
		t.Fatal(err)
	}
	if c.BudgetEverywhere || c.RequestBudget != Duration(DefaultRequestBudget) || c.FanoutLimit != DefaultFanoutLimit || !c.Tests {
		t.Errorf("defaults lost: %+v", c)
	}
}

func TestDecodeYAMLErrors(t *testing.T) {
	for _, tc := range []struct{ src, want string }{
		{"tests: true\nfanout_limit: 3\n", `f:2: unknown key "fanout_limit" at the top level (known keys: bounds, breakers, disable, enable, exclude-dirs, fanout-fix-limit, fanout-limit, generated, max-half-open, outbound, request-budget, retry-helpers, tests)`},
		{"breakers:\n  - package: p\n    type: T\n    method: [Run]\n", `f:4: unknown key "method" in breakers[0]`},
		{"request-budget: 0s\n", `f:1: request-budget: invalid duration "0s": must be positive`},
		{"max-half-open: 0\n", "f: max-half-open must be at least 1, got 0"},
		{"tests: maybe\n", "f:1: cannot unmarshal"},
		{"[1, 2]\n", "f:1: the configuration must be a mapping"},
		{"tests: true\na: b: c\n", "f:2: mapping values are not allowed"},
	} {
		err := Default().DecodeYAML([]byte(tc.src), "f")
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: error %v, want %q", tc.src, err, tc.want)
		}
	}
}

func TestSetDefaults(t *testing.T) {
	c := &Config{FanoutLimit: 4}
	c.SetDefaults()
	if c.FanoutLimit != 4 || c.FanoutFixLimit != DefaultFanoutLimit || c.MaxHalfOpen != DefaultMaxHalfOpen || c.RequestBudget != Duration(DefaultRequestBudget) || c.BudgetEverywhere {
		t.Errorf("%+v", c)
	}
	c = &Config{RequestBudget: Duration(time.Second)}
	c.SetDefaults()
	if !c.BudgetEverywhere {
		t.Error("an explicit budget must apply everywhere")
	}
}

func TestUnknownSetting(t *testing.T) {
	if err := UnknownSetting(map[string]any{"tests": true, "outbound": []any{map[string]any{"package": "p", "func": "f"}}}); err != nil {
		t.Errorf("known keys: %v", err)
	}
	err := UnknownSetting(map[string]any{"outbound": []any{map[string]any{"package": "p", "function": "f"}}})
	if err == nil || !strings.Contains(err.Error(), `unknown key "function" in outbound[0]`) {
		t.Errorf("got %v", err)
	}
}

// TestExcludeDirs: third_party, builtin and examples are excluded by
// default, at any depth below the module root; the file, a flag or the
// golangci settings change the list (one key: exclude-dirs).
func TestExcludeDirs(t *testing.T) {
	c := Default()
	for _, tc := range []struct {
		pkg, mod string
		want     bool
	}{
		{"example.com/m/examples/demo", "example.com/m", true},
		{"example.com/m/internal/third_party/x", "example.com/m", true},
		{"builtin", "", true},
		{"example.com/m/app", "example.com/m", false},
		{"example.com/examples", "example.com/examples", false}, // the module itself
		{"example.com/examples/app", "example.com/examples", false},
		{"example.com/m/myexamples", "example.com/m", false},
	} {
		if got := c.Excluded(tc.pkg, tc.mod); got != tc.want {
			t.Errorf("Excluded(%q, %q) = %v, want %v", tc.pkg, tc.mod, got, tc.want)
		}
	}
	c = Default()
	if err := c.DecodeYAML([]byte("exclude-dirs: []\n"), ".resilint.yml"); err != nil {
		t.Fatal(err)
	}
	if c.Excluded("example.com/m/examples/demo", "example.com/m") {
		t.Error("exclude-dirs: [] still excludes examples")
	}
	var s Config
	s.SetDefaults()
	if !s.Excluded("example.com/m/examples/demo", "example.com/m") {
		t.Error("golangci settings without exclude-dirs: examples is not excluded")
	}
}
