package unboundedfanout

import (
	"fmt"
	"strings"

	"golang.org/x/tools/go/analysis"

	"github.com/resilint/resilint/internal/analysisutil"
	"github.com/resilint/resilint/knowledge"
	"github.com/resilint/resilint/passes/loops"
)

// report reports a launch: how many goroutines, the dependency they all
// call, why that hurts, and how to bound it.
func (c *checker) report(l *launch) {
	r := l.rec
	fset := c.pass.Fset
	var parts []string
	for k := len(r.Open) - 1; k >= 0; k-- {
		t := r.Trips[r.Open[k]]
		switch t.Kind {
		case loops.Elements:
			if t.Chan {
				parts = append(parts, "value received from "+analysisutil.Format(fset, t.Collection))
			} else {
				parts = append(parts, "element of "+analysisutil.Format(fset, t.Collection))
			}
		case loops.Count:
			if t.Step > 1 {
				parts = append(parts, fmt.Sprintf("chunk of %d up to %s", t.Step, analysisutil.Format(fset, t.Bound)))
			} else {
				parts = append(parts, "iteration up to "+analysisutil.Format(fset, t.Bound))
			}
		case loops.Forever:
			parts = append(parts, "iteration of a loop with no fixed end")
		}
	}
	what := "one goroutine per " + strings.Join(parts, " and per ")
	if len(r.Open) == 0 {
		upTo := ""
		if r.UpTo {
			upTo = "up to "
		}
		what = fmt.Sprintf("%s%d goroutines at once (one per iteration)", upTo, r.N)
	}
	// The dependencies the goroutines call, named once each.
	var deps, calls []string
	seen := map[string]bool{}
	conns := true // every call holds a connection of its own while it waits
	for _, w := range r.Work {
		if w.Limit != "" {
			continue // a call under a limit on its path: not the fan-out
		}
		switch w.Kind {
		case knowledge.HTTP, knowledge.Dial, knowledge.TLS, knowledge.SQL:
		default:
			conns = false // gRPC streams share a connection; a client's own calls
		}
		d := w.Dep()
		if d == "" || seen[d] {
			continue
		}
		seen[d] = true
		deps, calls = append(deps, d), append(calls, w.Chain())
	}
	dep, call := "one dependency", ""
	if len(deps) > 0 {
		dep, call = deps[0], " ("+calls[0]+")"
	}
	if len(deps) > 1 {
		dep, call = strings.Join(deps, " and "), ""
	}
	// A large batch: the number is the input's. With every loop of a
	// known count (capped, or constant above the fan-out limit), that
	// count is what reaches the dependency at once.
	batch := "a large batch opens as many"
	if len(r.Open) == 0 {
		batch = fmt.Sprintf("that is %d", r.N)
	}
	harm := fmt.Sprintf("%s connections to %s at once, and a slow response holds them all", batch, dep)
	if !conns {
		harm = fmt.Sprintf("a large batch sends as many concurrent calls to %s at once, and a slow response holds them all in memory", dep)
		if len(r.Open) == 0 {
			harm = fmt.Sprintf("that is %d concurrent calls to %s at once, and a slow response holds them all in memory", r.N, dep)
		}
	}
	advice := "bound it with errgroup.SetLimit or a semaphore"
	if l.spec != nil && l.spec.Limit != "" {
		advice = fmt.Sprintf("bound it with %s.%s(%d)", analysisutil.Format(fset, l.group), l.spec.Limit, c.cfg.FanoutFixLimit)
	}
	c.emit(l, analysis.Diagnostic{
		Pos: l.node.Pos(), End: l.call.Lparen + 1,
		Message: fmt.Sprintf("%s with no limit, each calling %s%s: %s; %s", what, dep, call, harm, advice),
	})
}
