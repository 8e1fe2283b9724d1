package launch

import (
	"go/ast"
	"go/token"
	"go/types"
	"slices"
	"strconv"
	"strings"

	"github.com/resilint/resilint/internal/analysisutil"
	"github.com/resilint/resilint/passes/outbound"
)

// A call's identity is what designates its dependency: the host part of
// its target for a call that names one (the base of a URL, an address),
// its client otherwise. Whether the loop's element determines it is read
// from the variables it is computed from: "roots" below are the variables
// (parameters, range variables, locals out of sight) an identity
// expression depends on. Payload that only goes into a URL's path or query
// is not part of it.

// identityRoots returns the variables the identity of an outbound call
// depends on: the host part of its target when it names one, and its
// client (the element may be the client: one per connection or replica).
func (s *state) identityRoots(oc *outbound.Call) map[*types.Var]bool {
	out := map[*types.Var]bool{}
	if named(oc) {
		e := oc.Arg(oc.Spec.Target)
		if e == nil {
			e = oc.Arg(oc.Spec.Request)
		}
		s.hostRoots(e, out, 0)
	}
	client := oc.Client()
	if client == nil {
		client = oc.Recv
	}
	if client != nil {
		s.readRoots(client, out, 0)
	}
	return out
}

const maxTaint = 10

// hostRoots adds the variables the dependency that e designates depends
// on: for a URL or address, its host part (the first operand of a
// concatenation past a constant scheme, the leading verb of a Sprintf, the
// argument a request builder or URL parser takes it from); otherwise every
// variable e reads.
func (s *state) hostRoots(e ast.Expr, out map[*types.Var]bool, depth int) {
	if e == nil || depth > maxTaint {
		return
	}
	e = ast.Unparen(e)
	if _, ok := analysisutil.ConstString(s.info, e); ok {
		return
	}
	switch x := e.(type) {
	case *ast.BinaryExpr:
		if x.Op == token.ADD && isString(s.info.TypeOf(x)) && s.concatRoots(flatten(x), out, depth) {
			return
		}
	case *ast.CallExpr:
		if tv, ok := s.info.Types[x.Fun]; ok && tv.IsType() && len(x.Args) == 1 {
			s.hostRoots(x.Args[0], out, depth+1) // a conversion
			return
		}
		if fn, recv := s.flow.Callee(x); fn != nil {
			key := analysisutil.Key(fn)
			if i, ok := s.cfg.Table().Breakers.Targets[key]; ok {
				// A request builder or URL parser: the URL argument.
				if i < 0 {
					s.hostRoots(recv, out, depth+1)
				} else if i < len(x.Args) {
					s.hostRoots(x.Args[i], out, depth+1)
				}
				return
			}
			if i, ok := s.table.URLFormats[key]; ok && i == 0 {
				if s.sprintfRoots(x, out, depth) {
					return
				}
			}
			if f := s.hostFact(fn); f != nil {
				// A URL builder: only the parameters the host comes from.
				s.argRoots(f.On, fn, recv, x.Args, out)
				return
			}
		}
	case *ast.Ident:
		s.varRoots(x, out, depth)
		return
	}
	s.readRoots(e, out, depth)
}

// concatRoots handles the operands of a string concatenation, in order:
// the host is the first operand past a constant scheme, or a constant.
// false when the operands do not tell.
func (s *state) concatRoots(ops []ast.Expr, out map[*types.Var]bool, depth int) bool {
	for i, op := range ops {
		if c, ok := analysisutil.ConstString(s.info, op); ok {
			if strings.HasSuffix(c, "://") && i+1 < len(ops) {
				continue // the scheme: the host follows
			}
			// A constant host, or a relative path: no host here; else
			// the rest may be anything.
			return hasHost(c) || i == 0 && strings.Contains(c, "/") && !strings.Contains(c, ":")
		}
		s.hostRoots(op, out, depth+1)
		return true
	}
	return false
}

// sprintfRoots handles fmt.Sprintf(format, args...) with a constant format:
// the host is a constant prefix, or the argument of a leading verb
// ("%s/v1/orders", base). false when the format does not tell.
func (s *state) sprintfRoots(call *ast.CallExpr, out map[*types.Var]bool, depth int) bool {
	if len(call.Args) == 0 {
		return false
	}
	format, ok := analysisutil.ConstString(s.info, call.Args[0])
	if !ok {
		return false
	}
	rest := format
	if i := strings.Index(rest, "://"); i >= 0 && !strings.Contains(rest[:i], "%") {
		rest = rest[i+3:]
	}
	if len(rest) >= 2 && rest[0] == '%' && strings.IndexByte("sv", rest[1]) >= 0 {
		if strings.Count(format[:len(format)-len(rest)], "%") == 0 && len(call.Args) > 1 {
			s.hostRoots(call.Args[1], out, depth+1)
			return true
		}
		return false
	}
	prefix := cutAt(rest, "%")
	if len(rest) == len(format) {
		// No scheme: a relative path ("repos/%s/secrets") names no host;
		// anything else cannot be told.
		return strings.Contains(prefix, "/")
	}
	// A constant host: it ends before the first verb.
	if i := strings.IndexAny(prefix, "/?#"); i >= 0 {
		return i > 0
	}
	return prefix != "" && len(prefix) == len(rest) // no verb at all
}

func cutAt(s, sep string) string {
	if i := strings.Index(s, sep); i >= 0 {
		return s[:i]
	}
	return s
}

// readRoots adds every variable that e reads (through the definitions of
// the locals it reads).
func (s *state) readRoots(e ast.Expr, out map[*types.Var]bool, depth int) {
	ast.Inspect(e, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.SelectorExpr:
			if _, ok := s.info.Selections[n]; !ok {
				return false // pkg.Name: a package-level name
			}
		case *ast.Ident:
			s.varRoots(n, out, depth)
		}
		return true
	})
}

// varRoots adds the roots of a variable: a parameter or a range variable
// is a root itself (the range variable also depends on what it ranges
// over); a local's roots are its definitions' (one changed in place, i++
// or v += x, is a root too: a counting loop's index); a package-level
// variable has none
// (it is the same for every caller); a local whose definitions are out of
// sight is a root.
func (s *state) varRoots(id *ast.Ident, out map[*types.Var]bool, depth int) {
	v, ok := s.info.Uses[id].(*types.Var)
	if !ok || v.IsField() || isGlobal(v) || out[v] {
		return
	}
	if _, _, isParam := s.flow.IsParam(v); isParam {
		out[v] = true
		return
	}
	if rs := s.rangeOf(v); rs != nil {
		out[v] = true
		s.readRoots(rs.X, out, depth+1)
		return
	}
	if !s.flow.Visible(v) || depth > maxTaint {
		out[v] = true
		return
	}
	if s.seen[v] {
		return
	}
	s.seen[v] = true
	defer delete(s.seen, v)
	for _, d := range s.flow.DefsOf(v) {
		switch {
		case d.Rhs != nil:
			s.hostRoots(d.Rhs, out, depth+1)
		case !d.Zero:
			out[v] = true // changed in place (i++, v += x): a counter
		}
	}
	// A value built in place (var sb strings.Builder; sb.WriteString(host);
	// sb.String()) depends on what the calls that build it are given.
	// Written one string at a time, it is a concatenation in the order of
	// the writes.
	calls := s.builders(v)
	var ops []ast.Expr
	for _, call := range calls {
		if len(call.Args) != 1 || !isString(s.info.TypeOf(call.Args[0])) {
			ops = nil
			break
		}
		ops = append(ops, call.Args[0])
	}
	if len(ops) > 0 && s.concatRoots(ops, out, depth) {
		return
	}
	for _, call := range calls {
		for _, a := range call.Args {
			s.readRoots(a, out, depth+1)
		}
	}
}

// builders returns the calls, with arguments, of methods with a pointer
// receiver on the local variable v (not itself a pointer):
// sb.WriteString(x) is (&sb).WriteString(x), a call that changes v in
// place with what it is given.
func (s *state) builders(v *types.Var) []*ast.CallExpr {
	if s.builds == nil {
		s.builds = map[*types.Var][]*ast.CallExpr{}
		for _, f := range s.pass.Files {
			ast.Inspect(f, func(n ast.Node) bool {
				call, ok := n.(*ast.CallExpr)
				if !ok || len(call.Args) == 0 {
					return true // sb.String(), sb.Len(): nothing goes in
				}
				sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
				if !ok {
					return true
				}
				id, ok := ast.Unparen(sel.X).(*ast.Ident)
				if !ok {
					return true
				}
				x, ok := s.info.Uses[id].(*types.Var)
				if !ok || x.IsField() || isGlobal(x) {
					return true
				}
				if _, isPtr := x.Type().Underlying().(*types.Pointer); isPtr || types.IsInterface(x.Type()) {
					return true
				}
				sl, ok := s.info.Selections[sel]
				if !ok || sl.Kind() != types.MethodVal {
					return true
				}
				if sig, ok := sl.Obj().Type().(*types.Signature); ok && sig.Recv() != nil {
					if _, ptrRecv := sig.Recv().Type().(*types.Pointer); ptrRecv {
						s.builds[x] = append(s.builds[x], call)
					}
				}
				return true
			})
		}
	}
	return s.builds[v]
}

// rangeOf returns the range statement whose key or value v is.
func (s *state) rangeOf(v *types.Var) *ast.RangeStmt {
	if s.ranges == nil {
		s.ranges = map[*types.Var]*ast.RangeStmt{}
		for _, f := range s.pass.Files {
			ast.Inspect(f, func(n ast.Node) bool {
				if rs, ok := n.(*ast.RangeStmt); ok {
					for _, e := range []ast.Expr{rs.Key, rs.Value} {
						if id, ok := e.(*ast.Ident); ok {
							if rv, ok := s.info.ObjectOf(id).(*types.Var); ok {
								s.ranges[rv] = rs
							}
						}
					}
				}
				return true
			})
		}
	}
	return s.ranges[v]
}

// paramRoots returns the indexes of the parameters of decl among roots
// (-1: the receiver).
func (s *state) paramRoots(roots map[*types.Var]bool, decl ast.Node) []int {
	var out []int
	for v := range roots {
		if fn, idx, ok := s.flow.IsParam(v); ok && fn == decl {
			out = append(out, idx)
		}
	}
	return out
}

// argRoots returns the roots, in the caller, of the parameters params of a
// callee called with receiver recv and arguments args.
func (s *state) argRoots(params []int, fn *types.Func, recv ast.Expr, args []ast.Expr, out map[*types.Var]bool) {
	sig, _ := fn.Type().(*types.Signature)
	for _, p := range params {
		var e ast.Expr
		switch {
		case p < 0:
			e = recv
		case sig != nil && sig.Variadic() && p >= sig.Params().Len()-1:
			for _, a := range args[min(p, len(args)):] {
				s.readRoots(a, out, 0)
			}
			continue
		case p < len(args):
			e = args[p]
		}
		if e != nil {
			s.hostRoots(e, out, 0)
		}
	}
}

func flatten(x *ast.BinaryExpr) []ast.Expr {
	var ops []ast.Expr
	var walk func(e ast.Expr)
	walk = func(e ast.Expr) {
		if b, ok := ast.Unparen(e).(*ast.BinaryExpr); ok && b.Op == token.ADD {
			walk(b.X)
			walk(b.Y)
			return
		}
		ops = append(ops, e)
	}
	walk(x)
	return ops
}

func isString(t types.Type) bool {
	b, ok := t.Underlying().(*types.Basic)
	return ok && b.Info()&types.IsString != 0
}

// hasHost reports whether a constant URL or address names a host
// ("https://api.example.com/v1", "db.internal:5432").
func hasHost(s string) bool {
	if i := strings.Index(s, "://"); i >= 0 {
		h := s[i+3:]
		if j := strings.IndexAny(h, "/?#"); j >= 0 {
			h = h[:j]
		}
		return h != ""
	}
	host, port, ok := strings.Cut(s, ":")
	return ok && host != "" && port != "" && !strings.ContainsAny(s, "/ %")
}

// HostFact is exported for a function that returns a URL, an address or a
// request (a string or a request type as its first result): the
// parameters its host part depends on (On; -1: the receiver). At a call,
// only those arguments can change the host, and only through their own
// host part: restURL(host, "repos/"+name) does not depend on name.
type HostFact struct {
	On []int
}

func (*HostFact) AFact() {}

func (f *HostFact) String() string {
	on := make([]string, len(f.On))
	for i, p := range f.On {
		on[i] = "param" + strconv.Itoa(p)
		if p < 0 {
			on[i] = "recv"
		}
	}
	slices.Sort(on)
	return "host on " + strings.Join(on, ",")
}

// hostFact returns the HostFact of fn: computed for this package's
// functions, imported for others; nil when unknown.
func (s *state) hostFact(fn *types.Func) *HostFact {
	fn = fn.Origin()
	if fn.Pkg() != s.pass.Pkg {
		f := new(HostFact)
		if fn.Pkg() != nil && s.pass.ImportObjectFact(fn, f) {
			return f
		}
		return nil
	}
	if f, ok := s.hosts[fn]; ok {
		return f
	}
	s.hosts[fn] = nil // a recursive call: unknown
	f := s.computeHost(fn)
	s.hosts[fn] = f
	return f
}

func (s *state) computeHost(fn *types.Func) *HostFact {
	sig, ok := fn.Type().(*types.Signature)
	if !ok || sig.Results().Len() == 0 || !s.urlType(sig.Results().At(0).Type()) {
		return nil
	}
	decl := s.flow.Decl(fn)
	if decl == nil || decl.Body == nil {
		return nil
	}
	roots := map[*types.Var]bool{}
	ok = true
	ast.Inspect(decl.Body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.ReturnStmt:
			if len(n.Results) != sig.Results().Len() {
				ok = false // named results, or a call returning them all
				return false
			}
			if tv, isNil := s.info.Types[n.Results[0]]; isNil && tv.IsNil() {
				return false // return nil, err
			}
			s.hostRoots(n.Results[0], roots, 0)
		}
		return ok
	})
	if !ok {
		return nil
	}
	return &HostFact{On: s.paramRoots(roots, decl)}
}

// urlType reports whether values of type t can designate a dependency:
// a string (a URL, an address) or a request type the table knows.
func (s *state) urlType(t types.Type) bool {
	if isString(t) {
		return true
	}
	key := analysisutil.TypeKey(t)
	for _, r := range s.cfg.Table().Requests {
		if r.Type == key {
			return true
		}
	}
	return false
}
