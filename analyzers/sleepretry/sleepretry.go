package sleepretry

import (
	_ "embed"
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"regexp"
	"strings"
	"unicode/utf8"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/types/typeutil"

	"github.com/resilint/resilint/config"
	"github.com/resilint/resilint/internal/analysisutil"
	"github.com/resilint/resilint/knowledge"
	"github.com/resilint/resilint/passes/outbound"
	"github.com/resilint/resilint/passes/retryloop"
)

//go:embed doc.go
var docSrc string

// Doc is the analyzer's documentation, from doc.go.
var Doc = analysisutil.MustDoc(docSrc, "sleepretry")

// Analyzer is sleepretry with the default configuration.
var Analyzer = New(config.Default())

// New returns the analyzer for a configuration.
func New(cfg *config.Config) *analysis.Analyzer {
	return cfg.Memo("sleepretry", func() *analysis.Analyzer {
		rl := retryloop.New(cfg)
		return &analysis.Analyzer{
			Name:     Doc.Name,
			Doc:      Doc.Text(),
			URL:      "https://github.com/resilint/resilint/blob/main/analyzers/sleepretry/doc.go",
			Requires: []*analysis.Analyzer{rl},
			Run:      func(pass *analysis.Pass) (any, error) { return run(pass, cfg, rl) },
		}
	})
}

type checker struct {
	pass *analysis.Pass
	cfg  *config.Config
	rep  *analysisutil.Reporter
}

func run(pass *analysis.Pass, cfg *config.Config, rl *analysis.Analyzer) (any, error) {
	res := pass.ResultOf[rl].(*retryloop.Result)
	if !res.Relevant {
		return nil, nil
	}
	c := &checker{pass: pass, cfg: cfg, rep: analysisutil.NewReporter(pass, cfg)}
	for _, L := range res.Loops {
		c.loop(L)
	}
	seen := map[ast.Node]bool{}
	for _, h := range res.Helpers {
		c.helper(h, seen)
	}
	return nil, nil
}

// problems are what is wrong with one wait of a retry loop.
type problems struct {
	s         *retryloop.Sleep
	fixed     bool
	grows     bool
	blind     bool
	unbounded bool
	ctxName   string // the context in scope, for messages
}

func (p problems) any() bool { return p.fixed || p.grows || p.blind || p.unbounded }

func (c *checker) loop(L *retryloop.Loop) {
	if len(L.Sleeps) == 0 || L.Place == outbound.Local {
		return // no wait, or local work: no dependency to spare
	}
	unbounded := L.Unbounded()
	var chosen *problems
	if L.Polls {
		// A wait-for-ready poll: its waits pace the poll; only the
		// missing bound is a problem.
		c.rep.Report(analysis.Diagnostic{
			Pos: L.Stmt.Pos(), End: L.Stmt.Pos() + token.Pos(len("for")),
			Message: "poll has no attempt limit and no context or deadline to stop it: while the dependency fails, " +
				"or what the poll waits for never comes, it calls again forever; give it a deadline, or a context that ends, and check it in the loop",
		})
		return
	}
	for _, s := range L.Sleeps {
		p := problems{s: s}
		switch s.Vary {
		case knowledge.Invariant:
			p.fixed = true
		case knowledge.Grows:
			p.grows = true
		}
		if !s.CtxAware && s.Form != retryloop.CtxSleep && s.Ctx != "" {
			p.blind, p.ctxName = true, s.Ctx
		}
		if p.fixed || p.grows || p.blind {
			chosen = &p
			break
		}
	}
	if chosen == nil {
		if !unbounded {
			return
		}
		chosen = &problems{s: L.Sleeps[0]}
	}
	chosen.unbounded = unbounded
	var pos, end token.Pos
	if unbounded {
		pos, end = L.Stmt.Pos(), L.Stmt.Pos()+token.Pos(len("for"))
	} else {
		pos, end = chosen.s.Node.Pos(), chosen.s.Node.End()
	}
	c.rep.Report(analysis.Diagnostic{
		Pos: pos, End: end,
		Message:        c.message(*chosen),
		SuggestedFixes: c.fix(L, *chosen),
	})
}

// waitName names a wait for messages.
func (c *checker) waitName(s *retryloop.Sleep) string {
	switch {
	case s.Name == "":
		return "the wait"
	case s.Form == retryloop.Blocking && s.Name != "time.Sleep":
		return "a bare receive from " + s.Name
	}
	return s.Name
}

func (c *checker) message(p problems) string {
	var what, why []string
	dur := "duration"
	if p.s.Dur != nil {
		if t := oneLine(analysisutil.Format(c.pass.Fset, p.s.Dur)); t != "" && len(t) <= 48 {
			dur = t
		}
	} else if t := oneLine(p.s.DurText); t != "" && len(t) <= 48 {
		dur = t
	}
	if p.fixed {
		what = append(what, "waits the same "+dur+" before every attempt")
		why = append(why, "clients that failed together retry together, a retry storm for the struggling dependency")
	}
	if p.grows {
		what = append(what, "grows its wait ("+dur+") without jitter")
		why = append(why, "clients that failed together stay in step at every attempt")
	}
	if p.blind {
		if p.s.At != "" {
			what = append(what, "waits with "+c.waitName(p.s)+", which ignores this loop's "+p.ctxName)
		} else if p.s.CtxOutside {
			what = append(what, "waits with "+c.waitName(p.s)+" between yields, which ignores "+p.ctxName+" of the loop that ranges over it")
		} else {
			what = append(what, "waits with "+c.waitName(p.s)+", which ignores "+p.ctxName)
		}
		why = append(why, "cancellation and deadlines wait out the sleep")
	}
	if p.unbounded {
		what = append(what, "has no attempt limit and no context or deadline to stop it")
		why = append(why, "it retries forever")
	}
	// A constant wait is deliberate: keep its interval and randomise it
	// (issue 13, rule 13) rather than a default policy that shortens it.
	keep := "keep the interval and add randomisation (" + dur + "/2 plus a random share of " + dur + " from math/rand/v2)"
	if dur == "duration" || strings.ContainsAny(dur, "+-*/ ") {
		keep = "keep the interval and add randomisation (half of it plus a random share of it from math/rand/v2)"
	}
	advice := ""
	switch {
	case p.blind && p.s.CtxOutside:
		advice = "give the iterator " + p.ctxName + " and sleep with resil.Sleep(" + ctxArg(p.ctxName) + ", d), which returns when it is done"
		if p.fixed {
			advice += ", and " + keep
		} else if p.grows {
			advice += ", with exponential backoff and full jitter (resil.Backoff(attempt, base, max))"
		}
	case p.blind && p.fixed:
		advice = "sleep with resil.Sleep(" + ctxArg(p.ctxName) + ", d), which returns when " + p.ctxName + " is done, and " + keep
	case p.blind && p.grows:
		advice = "sleep with resil.Sleep(ctx, resil.Backoff(attempt, base, max)): exponential backoff with full jitter that returns when " + p.ctxName + " is done"
	case p.blind:
		advice = "sleep with resil.Sleep(" + ctxArg(p.ctxName) + ", d), which returns when the context is done"
	case p.fixed:
		advice = keep
	case p.grows:
		advice = "use exponential backoff with full jitter (resil.Backoff(attempt, base, max), or a random share of the delay from math/rand)"
	}
	if p.unbounded {
		if advice != "" {
			advice += ", and "
		}
		advice += "bound the attempts or stop when a context is done"
	}
	head := "retry loop "
	if p.s.At != "" {
		// The wait is in another package's iterator: say where.
		head = "retry loop over an iterator that, between yields (" + p.s.At + "), "
	}
	return head + list(what) + ": " + strings.Join(why, "; ") + "; " + advice
}

// list joins phrases: "a", "a and b", "a, b, and c".
func list(parts []string) string {
	switch len(parts) {
	case 0:
		return ""
	case 1:
		return parts[0]
	case 2:
		return parts[0] + ", and " + parts[1]
	}
	return strings.Join(parts[:len(parts)-1], ", ") + ", and " + parts[len(parts)-1]
}

func ctxArg(name string) string {
	if name == "" {
		return "ctx"
	}
	return name
}

// helper reports a retry helper configured with a fixed or unjittered
// delay, or to retry forever.
func (c *checker) helper(h *retryloop.Helper, seen map[ast.Node]bool) {
	delay := (h.Delay == knowledge.Invariant || h.Delay == knowledge.Grows) && h.DelayNode != nil
	unlimited := h.Unlimited && h.Site
	if !delay && !unlimited || h.Place == outbound.Local {
		return
	}
	node := ast.Node(h.Call)
	if delay {
		node = h.DelayNode
	}
	if seen[node] {
		return
	}
	seen[node] = true
	who := "this retry policy"
	switch {
	case h.Site:
		who = h.Row.Lib
	case c.jitterRow(h) != nil && c.jitterRow(h).Noun != "":
		who = c.jitterRow(h).Noun
	}
	pos, end := node.Pos(), node.End()
	var what, why, do []string
	if delay {
		text := ""
		pos, text = c.option(h.DelayNode)
		text = shorten(oneLine(text), 80)
		if h.Delay == knowledge.Invariant {
			what = append(what, "waits the same delay before every attempt ("+text+")")
			why = append(why, "clients that failed together retry together, a retry storm for the struggling dependency")
		} else {
			what = append(what, "grows its delay without jitter ("+text+")")
			why = append(why, "clients that failed together stay in step at every attempt")
		}
		do = append(do, c.jitterHint(h, text))
	}
	if unlimited {
		what = append(what, "retries with no attempt limit, no time limit and no context that can end")
		why = append(why, "it retries forever")
		do = append(do, "set an attempt limit or give it the caller's context")
	}
	c.rep.Report(analysis.Diagnostic{
		Pos: pos, End: end,
		Message: fmt.Sprintf("%s %s: %s; %s", who, list(what), strings.Join(why, "; "), strings.Join(do, ", and ")),
	})
}

// option returns where a delay option starts and how it reads: for a
// method in a builder chain (NewBuilder().WithMaxRetries(3).WithDelay(d)),
// the method and its arguments (WithDelay(d)).
func (c *checker) option(n ast.Node) (token.Pos, string) {
	call, ok := n.(*ast.CallExpr)
	if ok {
		if sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr); ok {
			if _, chained := ast.Unparen(sel.X).(*ast.CallExpr); chained {
				args := make([]string, len(call.Args))
				for i, a := range call.Args {
					args[i] = analysisutil.Format(c.pass.Fset, a)
				}
				return sel.Sel.Pos(), sel.Sel.Name + "(" + strings.Join(args, ", ") + ")"
			}
		}
	}
	return n.Pos(), analysisutil.Format(c.pass.Fset, n)
}

// oneLine renders printed source on one line: a multi-line composite
// literal or call (T{\n\tA: 1,\n}) closes up as gofmt writes it on one line
// (T{A: 1}), and every other run of white space becomes one space.
func oneLine(text string) string {
	text = openML.ReplaceAllString(text, "$1")
	text = closeML.ReplaceAllString(text, "$1")
	return strings.Join(strings.Fields(text), " ")
}

var (
	openML  = regexp.MustCompile(`(\S[{(\[])\n\s*`)
	closeML = regexp.MustCompile(`,\n\s*([})\]])`)
)

// shorten cuts text to at most max bytes, marking the cut with "...": after
// the last whole argument or field that fits (f(a, ...), T{A: 1, ...}),
// else after an opening bracket, else between words.
func shorten(text string, max int) string {
	if len(text) <= max {
		return text
	}
	head := text[:max-3]
	if i := strings.LastIndex(head[:len(head)-1], ", "); i > 0 {
		return head[:i+2] + "..."
	}
	if i := strings.LastIndexAny(head, "({["); i > 0 {
		return head[:i+1] + "..."
	}
	if i := strings.LastIndex(head, " "); i > 0 {
		return head[:i] + " ..."
	}
	cut := len(head)
	for cut > 0 && !utf8.RuneStart(text[cut]) {
		cut--
	}
	return text[:cut] + "..."
}

// jitterHint says how to add jitter with the helper's own library, naming
// its package as the file imports it; where the delay node itself turns
// the jitter off (an option with a zero factor, an assignment of zero, a
// literal without the jitter field) it says to drop or set that instead.
func (c *checker) jitterHint(h *retryloop.Helper, text string) string {
	rt := &c.cfg.Table().Retry
	switch n := h.DelayNode.(type) {
	case *ast.CallExpr:
		if fn := typeutil.StaticCallee(c.pass.TypesInfo, n); fn != nil {
			if row, ok := rt.Configs[analysisutil.Key(fn)]; ok && row.ZeroNoJitter >= 0 {
				return "drop " + text + ": without it the delays are randomised"
			}
		}
	case *ast.AssignStmt:
		return "remove " + text + ": without it the delays are randomised"
	case *ast.CompositeLit:
		if t, ok := rt.ConfigTypes[analysisutil.TypeKey(c.pass.TypesInfo.TypeOf(n))]; ok && t.JitterField != "" && h.Delay == knowledge.Grows {
			return "set " + t.JitterField + " (0.5 randomises each delay by ±50%)"
		}
	}
	if row := c.jitterRow(h); row != nil {
		hint := row.Hint
		if h.Delay == knowledge.Invariant && row.Keep != "" {
			hint = row.Keep
		}
		return strings.ReplaceAll(hint, "{pkg}", c.importName(h.DelayNode.Pos(), h.Fn.Pkg()))
	}
	if h.Delay == knowledge.Invariant {
		return "keep the delay and randomise it"
	}
	return "use exponential backoff with jitter"
}

// jitterRow returns the knowledge table's jitter hint for the helper's
// library, or nil.
func (c *checker) jitterRow(h *retryloop.Helper) *knowledge.JitterHint {
	if h.Fn == nil || h.Fn.Pkg() == nil {
		return nil
	}
	rows := c.cfg.Table().Retry.JitterHints
	for i := range rows {
		if strings.HasPrefix(h.Fn.Pkg().Path(), rows[i].Prefix) {
			return &rows[i]
		}
	}
	return nil
}

// importName returns the name the file at pos imports pkg under, or the
// package's own name.
func (c *checker) importName(pos token.Pos, pkg *types.Package) string {
	if f := analysisutil.FileOf(c.pass, pos); f != nil {
		if name, ok := analysisutil.ImportName(c.pass.TypesInfo, f, pkg.Path()); ok {
			return name
		}
	}
	return pkg.Name()
}
