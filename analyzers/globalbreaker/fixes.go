package globalbreaker

import (
	"fmt"
	"strconv"

	"golang.org/x/tools/go/analysis"

	"github.com/resilint/resilint/internal/analysisutil"
	"github.com/resilint/resilint/passes/deps"
)

// perDependencyFix replaces the shared breaker at a guarded call with the
// runtime package's per-dependency breaker: cb.Execute(f) →
// resil.BreakerFor("name").Execute(f). Only for calls whose method has the
// shape of the runtime breaker's, whose operation reaches one dependency
// with a name.
func (c *checker) perDependencyFix(g *guarded, name string) []analysis.SuggestedFix {
	if !g.direct || g.guard.Resil == "" || g.site.recv == nil || name == "" || g.ref.ctor != nil {
		return nil
	}
	if !oneDependency(c.m, g.sites) {
		return nil
	}
	rt := c.table.Runtime
	file := analysisutil.FileOf(c.pass, g.site.call.Pos())
	if file == nil {
		return nil
	}
	pkg, imports, ok := analysisutil.PackageName(c.pass, file, g.site.call.Pos(), rt.Path, rt.Name)
	if !ok {
		return nil
	}
	recv := g.site.recv
	newRecv := pkg + "." + rt.Func + "(" + strconv.Quote(name) + ")"
	edits := append([]analysis.TextEdit{{Pos: recv.Pos(), End: recv.End(), NewText: []byte(newRecv)}}, imports...)
	return []analysis.SuggestedFix{{
		Message:   fmt.Sprintf("Use the per-dependency breaker %s", newRecv),
		TextEdits: edits,
	}}
}

// oneDependency reports whether every known dependency of an operation is
// the same one.
func oneDependency(m *deps.Model, sites []deps.Site) bool {
	var first *deps.Site
	for i := range sites {
		if !sites[i].Known() {
			continue
		}
		if first == nil {
			first = &sites[i]
			continue
		}
		if m.Name(*first) != m.Name(sites[i]) || m.Different(*first, sites[i]) {
			return false
		}
	}
	return first != nil
}
