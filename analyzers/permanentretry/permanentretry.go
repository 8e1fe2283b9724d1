package permanentretry

import (
	_ "embed"
	"fmt"
	"go/ast"
	"go/token"
	"net/http"
	"strconv"
	"strings"

	"golang.org/x/tools/go/analysis"

	"github.com/resilint/resilint/config"
	"github.com/resilint/resilint/internal/analysisutil"
	"github.com/resilint/resilint/passes/outbound"
	"github.com/resilint/resilint/passes/retryloop"
)

//go:embed doc.go
var docSrc string

// Doc is the analyzer's documentation, from doc.go.
var Doc = analysisutil.MustDoc(docSrc, "permanentretry")

// Analyzer is permanentretry with the default configuration.
var Analyzer = New(config.Default())

// New returns the analyzer for a configuration.
func New(cfg *config.Config) *analysis.Analyzer {
	return cfg.Memo("permanentretry", func() *analysis.Analyzer {
		rl := retryloop.New(cfg)
		return &analysis.Analyzer{
			Name:     Doc.Name,
			Doc:      Doc.Text(),
			URL:      "https://github.com/resilint/resilint/blob/main/analyzers/permanentretry/doc.go",
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
	for _, L := range res.Loops {
		if L.Place == outbound.Local {
			continue // a local process (loopback, unix socket): no dependency to spare (rule 1)
		}
		for _, p := range L.Permanent {
			rep.Report(analysis.Diagnostic{Pos: p.Node.Pos(), End: headEnd(p), Message: message(p)})
		}
	}
	for _, pr := range res.Predicates {
		for _, p := range pr.Permanent {
			rep.Report(analysis.Diagnostic{Pos: p.Node.Pos(), End: headEnd(p), Message: predMessage(pr, p)})
		}
	}
	for _, p := range res.OpPermanent {
		if p.Op.Place == outbound.Local {
			continue
		}
		rep.Report(analysis.Diagnostic{Pos: p.Node.Pos(), End: headEnd(p), Message: opMessage(p)})
	}
	for _, sr := range res.ServiceRetries {
		rep.Report(analysis.Diagnostic{Pos: sr.Dial.Pos(), End: sr.Option.End(), Message: serviceMessage(sr)})
	}
	return nil, nil
}

// headEnd ends the reported range at the condition (not the whole if or
// case body).
func headEnd(p *retryloop.Permanent) token.Pos {
	switch n := p.Node.(type) {
	case *ast.IfStmt:
		return n.Cond.End()
	case *ast.CaseClause:
		return n.Colon + 1
	case *ast.SwitchStmt:
		return n.Body.Lbrace
	case *ast.ReturnStmt:
		if len(n.Results) > 0 {
			return n.Results[0].End()
		}
	}
	return p.Node.End()
}

func message(p *retryloop.Permanent) string {
	return fmt.Sprintf("this condition sends %s back into the retry loop: %s", subject(p),
		why(p, func(pron, only string) string { return "return on " + pron + " and retry only " + only }))
}

// predMessage is the message for a condition or return of a retry
// predicate that retries a permanent failure.
func predMessage(pr *retryloop.Predicate, p *retryloop.Permanent) string {
	what := "condition"
	if _, ok := p.Node.(*ast.ReturnStmt); ok {
		what = "return"
	}
	return fmt.Sprintf("this %s makes the retry predicate given to %s retry %s: %s", what, pr.Lib, subject(p),
		why(p, func(pron, only string) string { return "return false for " + pron + " and true only for " + only }))
}

// why says why the failures are permanent, and what to do: advise(pronoun,
// what may be retried).
func why(p *retryloop.Permanent, advise func(pron, only string) string) string {
	switch {
	case len(p.Statuses) > 0 && len(p.Codes) == 0:
		return "a 4xx other than 408, 425 and 429 is permanent, the same request fails the same way on every attempt; " +
			advise("it", "5xx, 408, 425 and 429")
	case len(p.Statuses) == 0:
		return "the code is permanent, the same call fails the same way on every attempt; " +
			advise("it", "transient codes such as Unavailable, DeadlineExceeded and ResourceExhausted")
	default:
		return "they are permanent, the same request fails the same way on every attempt; " +
			advise("them", "transient failures (5xx, 408, 425, 429; Unavailable)")
	}
}

// opMessage words a condition of an operation handed to a retry helper.
func opMessage(p *retryloop.Permanent) string {
	what := "condition"
	if _, ok := p.Node.(*ast.ReturnStmt); ok {
		what = "return"
	}
	// The stop function, named as the helper's package is (backoff.Permanent).
	stop := p.Op.Row.Stops[0]
	stop = stop[strings.LastIndex(stop, ".")+1:]
	if p.Op.Fn != nil && p.Op.Fn.Pkg() != nil {
		stop = p.Op.Fn.Pkg().Name() + "." + stop
	}
	return fmt.Sprintf("this %s returns an error for %s from the operation %s retries: %s", what, subject(p), p.Op.Row.Lib,
		why(p, func(pron, only string) string {
			return "wrap " + pron + " in " + stop + "(err) and return plain errors only for " + only
		}))
}

// serviceMessage words a service config that retries permanent codes.
func serviceMessage(sr *retryloop.ServiceRetry) string {
	list, noun := sr.Codes[0], "the code is"
	if n := len(sr.Codes); n > 1 {
		list, noun = strings.Join(sr.Codes[:n-1], ", ")+" and "+sr.Codes[n-1], "the codes are"
	}
	return "the service config's retry policy makes gRPC retry " + list + ": " + noun +
		" permanent, the same call fails the same way on every attempt; list only transient codes (UNAVAILABLE, RESOURCE_EXHAUSTED) in retryableStatusCodes"
}

func subject(p *retryloop.Permanent) string {
	var what []string
	if len(p.Statuses) > 0 {
		what = append(what, statuses(p.Statuses))
	}
	if len(p.Codes) > 0 {
		what = append(what, codes(p.Codes))
	}
	return strings.Join(what, " and ")
}

func statuses(list []int) string {
	name := func(s int) string {
		if t := http.StatusText(s); t != "" {
			return strconv.Itoa(s) + " " + t
		}
		return strconv.Itoa(s)
	}
	switch {
	case len(list) == 1:
		return "HTTP status " + name(list[0])
	case len(list) <= 3:
		parts := make([]string, len(list))
		for i, s := range list {
			parts[i] = name(s)
		}
		return "HTTP statuses " + strings.Join(parts, ", ")
	}
	// Many: the common ones first.
	var shown []string
	for _, s := range []int{400, 403, 404, 409, 410, 422} {
		for _, x := range list {
			if x == s {
				shown = append(shown, strconv.Itoa(s))
			}
		}
	}
	if len(shown) == 0 {
		for _, x := range list[:3] {
			shown = append(shown, strconv.Itoa(x))
		}
	}
	return fmt.Sprintf("permanent 4xx statuses (%s, ...)", strings.Join(shown, ", "))
}

func codes(list []string) string {
	if len(list) == 1 {
		return "gRPC code " + list[0]
	}
	return "gRPC codes " + strings.Join(list, ", ")
}
