package fixgen

import (
	"fmt"
	"strings"
)

// sig is the signature of the function being generated: what its return
// statements look like and which context its caller gave it.
type sig struct {
	name    string
	recv    string   // "(s *svc3) " or ""
	tparams string   // "[T any]" or ""
	params  []string // "ctx context.Context", ...
	results []string // result types, the last one error if errLast
	zeros   []string // the values returned besides the error
	errLast bool
	ctx     string // the caller's context: "ctx", "r.Context()" or ""
	handler bool   // (w http.ResponseWriter, r *http.Request)
}

// ret spells the statements that return err (an error expression).
func (s *sig) ret(err string) string {
	switch {
	case s.handler:
		return "http.Error(w, " + err + ".Error(), http.StatusInternalServerError)\nreturn"
	case !s.errLast:
		return "return"
	}
	return "return " + strings.Join(append(append([]string{}, s.zeros...), err), ", ")
}

// ok spells a successful return.
func (s *sig) ok() string {
	if s.handler || !s.errLast {
		return "return"
	}
	return "return " + strings.Join(append(append([]string{}, s.zeros...), "nil"), ", ")
}

func (s *sig) header() string {
	res := ""
	switch len(s.results) {
	case 0:
	case 1:
		res = " " + s.results[0]
	default:
		res = " (" + strings.Join(s.results, ", ") + ")"
	}
	return fmt.Sprintf("func %s%s%s(%s)%s", s.recv, s.name, s.tparams, strings.Join(s.params, ", "), res)
}

// closure is the signature of a func() error literal inside s.
func (s *sig) closure() *sig {
	return &sig{results: []string{"error"}, zeros: nil, errLast: true, ctx: s.ctx}
}

// noResults is the signature of a func() literal inside s (a goroutine).
func (s *sig) noResults() *sig {
	return &sig{ctx: s.ctx}
}

// ctxSig picks a signature for a function making outbound calls.
func (g *gen) ctxSig(f *file) *sig {
	s := &sig{name: g.id("Call"), errLast: true, results: []string{"error"}}
	switch g.r.IntN(7) {
	case 0: // no caller's context
	case 1: // an HTTP handler
		f.imp("net/http")
		s.params = []string{"w http.ResponseWriter", "r *http.Request"}
		s.results, s.errLast, s.handler, s.ctx = nil, false, true, "r.Context()"
	case 2: // generic
		s.tparams = "[T any]"
		s.params = []string{"ctx context.Context", "v T"}
		s.results, s.zeros, s.ctx = []string{"T", "error"}, []string{"v"}, "ctx"
	case 3: // a method with a value result
		typ := g.id("svc")
		f.decl("type %s struct{ n int }", typ)
		s.recv = "(s *" + typ + ") "
		s.params = []string{"ctx context.Context"}
		s.results, s.zeros, s.ctx = []string{"int", "error"}, []string{"s.n"}, "ctx"
	case 4: // no results
		s.params = []string{"ctx context.Context"}
		s.results, s.errLast, s.ctx = nil, false, "ctx"
	default:
		s.params = []string{"ctx context.Context", "ids []string"}
		s.ctx = "ctx"
	}
	if s.ctx == "ctx" {
		f.imp("context")
	}
	return s
}

// body collects the lines of a function body.
type body struct{ lines []string }

func (b *body) l(format string, args ...any) {
	b.lines = append(b.lines, fmt.Sprintf(format, args...))
}

func (b *body) add(o *body) { b.lines = append(b.lines, o.lines...) }

func (b *body) String() string { return strings.Join(b.lines, "\n") }

func fn(s *sig, b *body) string {
	return s.header() + " {\n" + b.String() + "\n}"
}
