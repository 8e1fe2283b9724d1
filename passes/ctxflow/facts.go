package ctxflow

import (
	"go/types"

	"github.com/resilint/resilint/internal/analysisutil"
)

// RequestFact is exported for a function that returns an outbound request
// (an *http.Request) whose context is known relative to its parameters.
type RequestFact struct {
	// Result is the index of the request among the results.
	Result int
	// Param is the index of the parameter whose context the request
	// carries, or -1.
	Param int
	// State, when Param is -1: Free or Deadline.
	State    State
	Detached bool
	// NoCtx: Free because the request is built without a context
	// (http.NewRequest).
	NoCtx bool
	// Slice: the result is a slice of requests, each of which is so.
	Slice bool
}

func (*RequestFact) AFact() {}

func (f *RequestFact) String() string {
	return "request{result " + itoa(f.Result) + ", param " + itoa(f.Param) + ", " + f.State.String() + "}"
}

func itoa(i int) string {
	if i < 0 {
		return "-" + itoa(-i)
	}
	if i < 10 {
		return string(rune('0' + i))
	}
	return itoa(i/10) + string(rune('0'+i%10))
}

// ClientFact is exported for a function that returns a client (an
// *http.Client, a dialer) whose timeout is known: every return gives a
// client with a Timeout, or every one a client without.
type ClientFact struct {
	Bound Bound
}

func (*ClientFact) AFact() {}

func (f *ClientFact) String() string {
	if f.Bound == HasTimeout {
		return "client{timeout}"
	}
	return "client{no timeout}"
}

// RecontextFact is exported for a function that gives a request parameter
// a new context (req = req.WithContext(ctx)) before using it: a request
// passed to it is not sent with the context it was built with.
type RecontextFact struct {
	Params []int
}

func (*RecontextFact) AFact() {}

func (f *RecontextFact) String() string {
	s := "recontexts"
	for _, p := range f.Params {
		s += " #" + itoa(p)
	}
	return s
}

func (m *Model) exportRequestFacts() {
	for fn := range m.decls {
		sig := fn.Type().(*types.Signature)
		if m.anyRequest(sig.Results()) {
			if f := m.requestFact(fn); f != nil {
				m.Pass.ExportObjectFact(fn, f)
			}
		}
		if m.anyRequest(sig.Params()) {
			if f := m.recontextFact(fn); f != nil {
				m.Pass.ExportObjectFact(fn, f)
			}
		}
		if sig.Results().Len() > 0 {
			m.exportShapeFact(fn)
		}
		if sig.Results().Len() > 0 && fn.Exported() && m.returnsUnlimitedGroup(fn) {
			m.Pass.ExportObjectFact(fn, &UnlimitedGroupFact{})
		}
		if sig.Results().Len() > 0 && fn.Exported() {
			f := &ConnFact{Unary: m.returnsConn(fn, false, map[*types.Var]bool{}, 0), Stream: m.returnsConn(fn, true, map[*types.Var]bool{}, 0)}
			if f.Unary != BoundUnknown || f.Stream != BoundUnknown {
				m.Pass.ExportObjectFact(fn, f)
			}
		}
		if sig.Results().Len() > 0 && fn.Exported() {
			if _, ok := m.Table.ClientTypes[analysisutil.TypeKey(sig.Results().At(0).Type())]; ok {
				if b := m.constructed(fn, map[*types.Var]bool{}, 0); b != BoundUnknown {
					m.Pass.ExportObjectFact(fn, &ClientFact{Bound: b})
				}
			}
		}
	}
}
