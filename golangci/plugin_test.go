package golangci_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/golangci/plugin-module-register/register"
	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/resilint/resilint/golangci"
	"github.com/resilint/resilint/suite"
)

func build(t *testing.T, settings any) []*analysis.Analyzer {
	t.Helper()
	newPlugin, err := register.GetPlugin("resilint")
	if err != nil {
		t.Fatal(err) // init did not register the plugin
	}
	p, err := newPlugin(settings)
	if err != nil {
		t.Fatalf("settings %v: %v", settings, err)
	}
	if p.GetLoadMode() != register.LoadModeTypesInfo {
		t.Errorf("load mode %q, want %q", p.GetLoadMode(), register.LoadModeTypesInfo)
	}
	as, err := p.BuildAnalyzers()
	if err != nil {
		t.Fatal(err)
	}
	return as
}

func names(as []*analysis.Analyzer) []string {
	var out []string
	for _, a := range as {
		out = append(out, a.Name)
	}
	return out
}

func TestDefaults(t *testing.T) {
	for _, settings := range []any{nil, map[string]any{}} {
		if got := names(build(t, settings)); !slices.Equal(got, suite.Names()) {
			t.Errorf("settings %v: analyzers %q, want all of %q", settings, got, suite.Names())
		}
	}
}

func TestEnableDisable(t *testing.T) {
	first := suite.Names()[0]
	if got := names(build(t, map[string]any{"enable": []any{first}})); !slices.Equal(got, []string{first}) {
		t.Errorf("enable [%s]: got %q", first, got)
	}
	got := names(build(t, map[string]any{"disable": []any{first}}))
	if slices.Contains(got, first) || len(got) != len(suite.Names())-1 {
		t.Errorf("disable [%s]: got %q", first, got)
	}
}

// TestSettingsTakeEffect runs the analyzers the plugin builds, with a team's
// outbound wrapper and a request budget, on testdata: both findings exist
// only because of the settings.
func TestSettingsTakeEffect(t *testing.T) {
	settings := map[string]any{
		"request-budget": "15s",
		"outbound": []any{
			map[string]any{"package": "example.com/team/wrap", "func": "Call", "ctx": -1},
		},
	}
	ran := 0
	for _, a := range build(t, settings) {
		switch a.Name {
		case "ctxdeadline":
			analysistest.Run(t, analysistest.TestData(), a, "example.com/team/app")
			ran++
		case "detachedctx":
			analysistest.Run(t, analysistest.TestData(), a, "example.com/team/budget")
			ran++
		}
	}
	if ran != 2 {
		t.Errorf("ran %d of ctxdeadline and detachedctx", ran)
	}
	// Without the settings, neither finding exists.
	for _, a := range build(t, nil) {
		pkg := map[string]string{"ctxdeadline": "example.com/team/app", "detachedctx": "example.com/team/budget"}[a.Name]
		if pkg == "" {
			continue
		}
		for _, r := range analysistest.Run(&quiet{T: t}, analysistest.TestData(), a, pkg) {
			if len(r.Diagnostics) != 0 {
				t.Errorf("%s without settings: %d findings, want none", a.Name, len(r.Diagnostics))
			}
		}
	}
}

// quiet is a testing.T for analysistest that ignores the unmatched want
// comments (the run without settings is expected to miss them).
type quiet struct{ *testing.T }

func (q *quiet) Errorf(format string, args ...any) {}

func TestBadSettings(t *testing.T) {
	for _, tc := range []struct {
		settings any
		want     string
	}{
		{map[string]any{"fanout-limt": 3}, `unknown key "fanout-limt" at the top level (known keys: `},
		{map[string]any{"outbound": []any{map[string]any{"package": "p", "fnc": "F"}}}, `unknown key "fnc" in outbound[0]`},
		{map[string]any{"request-budget": "soon"}, `invalid duration "soon"`},
		{map[string]any{"request-budget": 10}, "request-budget"},
		{map[string]any{"enable": []any{"nosuch"}}, "unknown analyzer nosuch"},
		{map[string]any{"fanout-limit": -2}, "fanout-limit must be at least 1"},
		{map[string]any{"outbound": []any{map[string]any{"package": "p"}}}, "outbound rule needs package and func"},
		{map[string]any{"outbound": []any{map[string]any{"package": "p", "func": "F", "kind": "smtp"}}}, `unknown outbound kind "smtp"`},
		{"just a string", "resilint settings"},
	} {
		_, err := golangci.New(tc.settings)
		if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.HasPrefix(err.Error(), "resilint settings: ") {
			t.Errorf("settings %v: error %v, want one containing %q", tc.settings, err, tc.want)
		}
	}
}
