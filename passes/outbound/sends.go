package outbound

import (
	"go/ast"
	"go/types"
	"sort"

	"github.com/resilint/resilint/internal/analysisutil"
	"github.com/resilint/resilint/passes/ctxflow"
)

// SendFact is exported for a function that sends a request it is given
// (func (c *Client) do(req *http.Request) { return c.hc.Do(req) }), through
// any number of helpers and packages: the request's context is the call's,
// so the caller's send is judged where the helper is called.
type SendFact struct {
	Params []SendParam
}

// SendParam is one request parameter that is sent.
type SendParam struct {
	// Index of the parameter (receiver excluded).
	Index int
	// Unbounded: the send it reaches has nothing but the request's
	// context to bound it (its client provably has no Timeout).
	Unbounded bool
	// Chain names the functions from this one's callee to the send, the
	// send last.
	Chain []string
}

func (*SendFact) AFact() {}

func (f *SendFact) String() string {
	s := "sends"
	for _, p := range f.Params {
		s += paramString("req", p.Index, p.Unbounded, p.Chain)
	}
	return s
}

// Param returns the sent parameter with index i.
func (f *SendFact) Param(i int) (SendParam, bool) {
	for _, p := range f.Params {
		if p.Index == i {
			return p, true
		}
	}
	return SendParam{}, false
}

// Send is a call to a function that sends a request it is given.
type Send struct {
	Call *ast.CallExpr
	Fn   *types.Func
	Fact *SendFact
}

// Request returns the request argument of parameter p, or nil.
func (s *Send) Request(p SendParam) ast.Expr {
	if p.Index < 0 || p.Index >= len(s.Call.Args) || s.Call.Ellipsis.IsValid() {
		return nil
	}
	return s.Call.Args[p.Index]
}

// sendFact returns the SendFact of fn, computing it for this package's
// functions.
func (s *state) sendFact(fn *types.Func) *SendFact {
	fn = fn.Origin()
	if fn.Pkg() != s.pass.Pkg {
		if s.localPackage(fn) {
			return nil // the client of a local daemon: it forwards to no dependency
		}
		f := new(SendFact)
		if s.pass.ImportObjectFact(fn, f) {
			return f
		}
		return nil
	}
	if f, ok := s.sendMemo[fn]; ok {
		return f
	}
	if s.sendBusy[fn] {
		return nil
	}
	s.sendBusy[fn] = true
	f := s.computeSend(fn)
	delete(s.sendBusy, fn)
	s.sendMemo[fn] = f
	return f
}

func (s *state) computeSend(fn *types.Func) *SendFact {
	decl := s.model.Decl(fn)
	if decl == nil || decl.Body == nil {
		return nil
	}
	sig := fn.Type().(*types.Signature)
	params := map[*types.Var]int{}
	for i := 0; i < sig.Params().Len(); i++ {
		if s.model.IsRequestType(sig.Params().At(i).Type()) {
			params[sig.Params().At(i)] = i
		}
	}
	if len(params) == 0 {
		return nil
	}
	// param returns the index of the request parameter e is, never
	// reassigned, or -1.
	param := func(e ast.Expr) int {
		id, ok := ast.Unparen(e).(*ast.Ident)
		if !ok {
			return -1
		}
		v, ok := s.pass.TypesInfo.Uses[id].(*types.Var)
		if !ok || s.model.Assigned(v) {
			return -1
		}
		if i, ok := params[v]; ok {
			return i
		}
		return -1
	}
	found := map[int]*SendParam{}
	note := func(i int, unbounded bool, chain []string) {
		if len(chain) > maxChain {
			chain = chain[:maxChain]
		}
		p := found[i]
		if p == nil {
			found[i] = &SendParam{Index: i, Unbounded: unbounded, Chain: chain}
		} else if unbounded && !p.Unbounded {
			p.Unbounded, p.Chain = true, chain
		}
	}
	for _, n := range s.byFunc[decl] {
		call := n.(*ast.CallExpr)
		if c, ok := s.res.ByCall[call]; ok {
			if r := c.Request(); r != nil {
				if i := param(r); i >= 0 {
					note(i, c.Evidence().Unbounded(), []string{c.Name()})
				}
			}
			continue
		}
		callee, _ := s.model.Callee(call)
		if callee == nil || callee.Origin() == fn {
			continue
		}
		f := s.sendFact(callee)
		if f == nil || call.Ellipsis.IsValid() {
			continue
		}
		for _, sp := range f.Params {
			if sp.Index < len(call.Args) {
				if i := param(call.Args[sp.Index]); i >= 0 {
					note(i, sp.Unbounded, append([]string{analysisutil.Name(callee)}, sp.Chain...))
				}
			}
		}
	}
	if len(found) == 0 {
		return nil
	}
	f := &SendFact{}
	for _, p := range found {
		f.Params = append(f.Params, *p)
	}
	sort.Slice(f.Params, func(i, j int) bool { return f.Params[i].Index < f.Params[j].Index })
	return f
}

// SentRequest returns the origin of the context a helper's send uses: the
// request argument's.
func SentRequest(m *ctxflow.Model, s *Send, p SendParam) (ctxflow.Origin, bool) {
	r := s.Request(p)
	if r == nil {
		return ctxflow.Origin{}, false
	}
	return m.Request(r), true
}
