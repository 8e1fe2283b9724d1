package retryloop

import (
	"go/types"
	"strconv"

	"github.com/resilint/resilint/internal/analysisutil"
	"github.com/resilint/resilint/knowledge"
)

// ConfigFact is exported for a function that returns a retry
// configuration of a known type (a retryablehttp.Client, a cenkalti
// BackOff) whose make is read on every return: how it retries. A helper
// given the configuration (rc := transport.NewSingleShot(); rc.Get(url))
// reads it as if it were built in place.
type ConfigFact struct {
	Retries      bool
	AttemptsSet  bool
	Attempts     int // when AttemptsSet: 0 unknown
	AttemptsText string
	Unlimited    bool
	TimeLimit    bool
	VarySet      bool
	Vary         knowledge.Variation
	Jitter       bool
	Ctx          bool
}

func (*ConfigFact) AFact() {}

func (f *ConfigFact) String() string {
	s := "config{"
	if f.Retries {
		s += "retries"
	} else {
		s += "no retries"
	}
	if f.AttemptsSet {
		s += ", attempts " + boundOrText(f.Attempts, f.AttemptsText)
	}
	return s + "}"
}

func boundOrText(n int, text string) string {
	if n > 0 {
		return strconv.Itoa(n)
	}
	if text != "" {
		return text
	}
	return "?"
}

// madeConfig is the configuration a call of fn returns when fn is not a
// knowledge row: read on every return of a function of this package, from
// the ConfigFact of another package's.
func (m *model) madeConfig(fn *types.Func, depth int) (cfgVal, bool) {
	if fn.Pkg() == nil {
		return cfgVal{}, false
	}
	if fn.Pkg() != m.pass.Pkg {
		f := new(ConfigFact)
		if !m.pass.ImportObjectFact(fn.Origin(), f) {
			return cfgVal{}, false
		}
		return cfgVal{known: true, retries: f.Retries, attemptsSet: f.AttemptsSet, attempts: f.Attempts,
			attemptsText: f.AttemptsText, unlimited: f.Unlimited, timeLimit: f.TimeLimit, varySet: f.VarySet,
			vary: f.Vary, jitter: f.Jitter, ctx: f.Ctx}, true
	}
	decl := m.x.decls[fn.Origin()]
	if decl == nil || decl.Body == nil || depth > 8 {
		return cfgVal{}, false
	}
	sig, _ := fn.Type().(*types.Signature)
	if sig == nil || sig.Results().Len() == 0 {
		return cfgVal{}, false
	}
	if _, ok := m.rt.ConfigTypes[analysisutil.TypeKey(sig.Results().At(0).Type())]; !ok {
		return cfgVal{}, false
	}
	results, ok := analysisutil.FirstResults(m.info, decl.Body)
	if !ok || len(results) == 0 {
		return cfgVal{}, false
	}
	var out cfgVal
	for i, r := range results {
		if tv, ok := m.info.Types[r]; ok && tv.IsNil() {
			continue // return nil, err
		}
		c := m.evalConfig(r, depth+1)
		if !c.known {
			return cfgVal{}, false
		}
		c.varyNode = nil // the node is in the function, not at the call
		if i > 0 && out.known && !sameConfig(out, c) {
			return cfgVal{}, false
		}
		out = c
	}
	return out, out.known
}

func sameConfig(a, b cfgVal) bool {
	return a.retries == b.retries && a.attemptsSet == b.attemptsSet && a.attempts == b.attempts &&
		a.unlimited == b.unlimited && a.timeLimit == b.timeLimit && a.effective() == b.effective()
}

// configFact computes the ConfigFact of an exported function of the
// package, nil when its configuration is not read.
func (m *model) configFact(fn *types.Func) *ConfigFact {
	c, ok := m.madeConfig(fn, 0)
	if !ok {
		return nil
	}
	return &ConfigFact{Retries: c.retries, AttemptsSet: c.attemptsSet, Attempts: c.attempts, AttemptsText: c.attemptsText,
		Unlimited: c.unlimited, TimeLimit: c.timeLimit, VarySet: c.varySet, Vary: c.vary, Jitter: c.jitter, Ctx: c.ctx}
}
