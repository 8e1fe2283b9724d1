// Package suite lists resilint's user-facing analyzers. It is the one place
// that knows them all: the command, the golangci-lint plugin and the
// documentation tests read it.
package suite

import (
	"fmt"
	"sort"
	"strings"

	"golang.org/x/tools/go/analysis"

	"github.com/resilint/resilint/analyzers/ctxdeadline"
	"github.com/resilint/resilint/analyzers/detachedctx"
	"github.com/resilint/resilint/analyzers/globalbreaker"
	"github.com/resilint/resilint/analyzers/nestedretry"
	"github.com/resilint/resilint/analyzers/permanentretry"
	"github.com/resilint/resilint/analyzers/sleepretry"
	"github.com/resilint/resilint/analyzers/unboundedfanout"
	"github.com/resilint/resilint/config"
	"github.com/resilint/resilint/internal/analysisutil"
)

// An entry is one analyzer: its documentation and its constructor.
type entry struct {
	doc analysisutil.Doc
	new func(*config.Config) *analysis.Analyzer
}

var entries = []entry{
	{ctxdeadline.Doc, ctxdeadline.New},
	{detachedctx.Doc, detachedctx.New},
	{sleepretry.Doc, sleepretry.New},
	{permanentretry.Doc, permanentretry.New},
	{nestedretry.Doc, nestedretry.New},
	{globalbreaker.Doc, globalbreaker.New},
	{unboundedfanout.Doc, unboundedfanout.New},
}

// Docs returns the documentation of every analyzer, in the suite's order.
func Docs() []analysisutil.Doc {
	out := make([]analysisutil.Doc, len(entries))
	for i, e := range entries {
		out[i] = e.doc
	}
	return out
}

// Names returns the analyzers' names.
func Names() []string {
	var out []string
	for _, e := range entries {
		out = append(out, e.doc.Name)
	}
	return out
}

// All returns every analyzer built for cfg, enabled or not.
func All(cfg *config.Config) []*analysis.Analyzer {
	out := make([]*analysis.Analyzer, len(entries))
	for i, e := range entries {
		out[i] = e.new(cfg)
	}
	return out
}

// Analyzers returns the analyzers cfg enables, built for cfg. It fails on
// names in cfg.Enable or cfg.Disable that are not analyzers.
func Analyzers(cfg *config.Config) ([]*analysis.Analyzer, error) {
	known := map[string]bool{}
	for _, n := range Names() {
		known[n] = true
	}
	check := func(list []string, what string) error {
		var bad []string
		for _, n := range list {
			if !known[n] {
				bad = append(bad, n)
			}
		}
		if len(bad) > 0 {
			sort.Strings(bad)
			return fmt.Errorf("%s: unknown analyzer %s (known: %s)", what, strings.Join(bad, ", "), strings.Join(Names(), ", "))
		}
		return nil
	}
	if err := check(cfg.Enable, "enable"); err != nil {
		return nil, err
	}
	if err := check(cfg.Disable, "disable"); err != nil {
		return nil, err
	}
	on := map[string]bool{}
	for _, n := range cfg.Enable {
		on[n] = true
	}
	off := map[string]bool{}
	for _, n := range cfg.Disable {
		off[n] = true
	}
	var out []*analysis.Analyzer
	for _, e := range entries {
		n := e.doc.Name
		if (len(on) > 0 && !on[n]) || off[n] {
			continue
		}
		out = append(out, e.new(cfg))
	}
	return out, nil
}
