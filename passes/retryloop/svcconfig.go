package retryloop

import (
	"encoding/json"
	"go/ast"
	"strings"

	"github.com/resilint/resilint/internal/analysisutil"
	"github.com/resilint/resilint/passes/outbound"
)

// A ServiceRetry is a gRPC dial whose default service config (a constant
// JSON given to grpc.WithDefaultServiceConfig) has a retry policy that
// lists permanent status codes: gRPC itself re-sends every call of the
// connection that failed with them.
type ServiceRetry struct {
	Dial   *ast.CallExpr // grpc.NewClient(target, ...)
	Option *ast.CallExpr // grpc.WithDefaultServiceConfig(cfg)
	Codes  []string      // the permanent codes listed, by name (NotFound)
}

// serviceRetry records a dial call's service config retry policy when it
// lists permanent codes and the connection is not proven local.
func (m *model) serviceRetry(call *ast.CallExpr) {
	g := &m.table.GRPC
	if g.DefaultServiceConfig == "" {
		return
	}
	fn, _ := m.callee(call)
	if fn == nil {
		return
	}
	first, ok := g.Dials[analysisutil.Key(fn)]
	if !ok || first > len(call.Args) {
		return
	}
	for _, a := range call.Args[first:] {
		oc, ok := ast.Unparen(a).(*ast.CallExpr)
		if !ok || len(oc.Args) != 1 {
			continue
		}
		ofn, _ := m.callee(oc)
		if ofn == nil || analysisutil.Key(ofn) != g.DefaultServiceConfig {
			continue
		}
		strs, ok := m.m.Strings(oc.Args[0])
		if !ok {
			continue
		}
		var codes []string
		for _, js := range strs {
			for _, c := range m.retryableCodes(js) {
				if _, perm := m.rt.PermanentCodes[c]; perm && !containsStr(codes, c) {
					codes = append(codes, c)
				}
			}
		}
		if len(codes) == 0 || m.ob.DialPlace(call).Locality == outbound.Local {
			continue
		}
		m.svcRetries = append(m.svcRetries, &ServiceRetry{Dial: call, Option: oc, Codes: codes})
	}
}

// retryableCodes returns the codes a service config's retry policies list
// (retryableStatusCodes, by name or number), named as the knowledge table
// names them (NOT_FOUND → NotFound).
func (m *model) retryableCodes(js string) []string {
	var sc struct {
		MethodConfig []struct {
			RetryPolicy *struct {
				RetryableStatusCodes []json.RawMessage `json:"retryableStatusCodes"`
			} `json:"retryPolicy"`
		} `json:"methodConfig"`
	}
	if json.Unmarshal([]byte(js), &sc) != nil {
		return nil
	}
	var out []string
	for _, mc := range sc.MethodConfig {
		if mc.RetryPolicy == nil {
			continue
		}
		for _, raw := range mc.RetryPolicy.RetryableStatusCodes {
			var name string
			var n int
			switch {
			case json.Unmarshal(raw, &name) == nil:
				out = append(out, camel(name))
			case json.Unmarshal(raw, &n) == nil:
				if s, ok := m.rt.CodeNames[n]; ok {
					out = append(out, s)
				}
			}
		}
	}
	return out
}

// camel spells a gRPC code's canonical name as Go does: NOT_FOUND →
// NotFound.
func camel(s string) string {
	var b strings.Builder
	for _, part := range strings.Split(strings.ToLower(s), "_") {
		if part != "" {
			b.WriteString(strings.ToUpper(part[:1]) + part[1:])
		}
	}
	return b.String()
}
