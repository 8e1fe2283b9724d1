package nestedretry

import (
	_ "embed"
	"fmt"
	"strconv"
	"strings"

	"golang.org/x/tools/go/analysis"

	"github.com/resilint/resilint/config"
	"github.com/resilint/resilint/internal/analysisutil"
	"github.com/resilint/resilint/passes/retryloop"
)

//go:embed doc.go
var docSrc string

// Doc is the analyzer's documentation, from doc.go.
var Doc = analysisutil.MustDoc(docSrc, "nestedretry")

// Analyzer is nestedretry with the default configuration.
var Analyzer = New(config.Default())

// New returns the analyzer for a configuration.
func New(cfg *config.Config) *analysis.Analyzer {
	return cfg.Memo("nestedretry", func() *analysis.Analyzer {
		rl := retryloop.New(cfg)
		return &analysis.Analyzer{
			Name:     Doc.Name,
			Doc:      Doc.Text(),
			URL:      "https://github.com/resilint/resilint/blob/main/analyzers/nestedretry/doc.go",
			Requires: []*analysis.Analyzer{rl},
			Run:      func(pass *analysis.Pass) (any, error) { return run(pass, cfg, rl) },
		}
	})
}

func run(pass *analysis.Pass, cfg *config.Config, rl *analysis.Analyzer) (any, error) {
	res := pass.ResultOf[rl].(*retryloop.Result)
	if !res.Relevant {
		return nil, nil
	}
	rep := analysisutil.NewReporter(pass, cfg)
	for _, n := range res.Nested {
		rep.Report(analysis.Diagnostic{Pos: n.Node.Pos(), End: n.Node.End(), Message: Message(n)})
	}
	return nil, nil
}

// Message explains a nested retry.
func Message(n *retryloop.Nested) string {
	layers := append([]retryloop.Layer{n.Outer}, n.Inner...)
	factors := make([]string, len(layers))
	for i, l := range layers {
		factors[i] = factor(l)
	}
	head := "retry amplification " + strings.Join(factors, "×")
	product := retryloop.Product(layers...)
	if product > 0 {
		head += " = " + strconv.Itoa(product)
	}
	outer := "this loop"
	if n.Outer.Via != "" {
		outer = "this " + n.Outer.Via
	}
	var b strings.Builder
	if n.Loop {
		fmt.Fprintf(&b, "%s: this inner retry loop (%s) runs to its end on every attempt of the loop around it (%s)",
			head, attempts(n.Inner[0]), attempts(n.Outer))
		if product > 0 {
			fmt.Fprintf(&b, ", so a failing dependency gets %d requests for one call", product)
		} else {
			fmt.Fprintf(&b, ", so a failing dependency gets %s requests for one call", strings.Join(factors, "×"))
		}
		b.WriteString("; retry at one layer only")
		return b.String()
	}
	fmt.Fprintf(&b, "%s: %s (%s) calls ", head, outer, attempts(n.Outer))
	for i, l := range n.Inner {
		callee := l.Call
		if i == 0 {
			callee = n.Callee
			if callee == "" {
				callee = l.Call
			}
		}
		if i > 0 {
			b.WriteString(", which calls ")
		}
		b.WriteString(callee)
		b.WriteString(", which retries (" + attempts(l) + ")")
		if l.Func != "" && l.Func != callee {
			b.WriteString(" in " + l.Func)
		}
		if l.Via != "" && l.Via != callee {
			b.WriteString(" with " + l.Via)
		}
	}
	if product > 0 {
		fmt.Fprintf(&b, ", so a failing dependency gets %d requests for one call", product)
	} else {
		fmt.Fprintf(&b, ", so a failing dependency gets %s requests for one call", strings.Join(factors, "×"))
	}
	b.WriteString("; retry at one layer only")
	return b.String()
}

// factor spells a layer's attempts in the product: the number, the
// expression bounding them (in parentheses when it is a sum: (maxRetries+1)),
// or n.
func factor(l retryloop.Layer) string {
	switch {
	case l.Attempts > 0:
		return strconv.Itoa(l.Attempts)
	case l.Bound == "":
		return "n"
	case strings.ContainsAny(l.Bound, "+-*/ "):
		return "(" + l.Bound + ")"
	}
	return l.Bound
}

// attempts spells a layer's attempts: "3 attempts", "attempts:
// maxRetries+1", "n attempts".
func attempts(l retryloop.Layer) string {
	switch {
	case l.Attempts == 1:
		return "1 attempt"
	case l.Attempts > 0:
		return strconv.Itoa(l.Attempts) + " attempts"
	case l.Bound != "":
		return "attempts: " + l.Bound
	}
	return "n attempts"
}
