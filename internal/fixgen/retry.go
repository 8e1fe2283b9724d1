package fixgen

// Retry loops that sleep, and shared circuit breakers.

// retry adds a function with a retry loop that waits between attempts.
func (g *gen) retry(f *file) {
	f.imp("context", "time")
	g.need("work")
	s := &sig{name: g.id("Retry"), ctx: "ctx", params: []string{"ctx context.Context"}, results: []string{"error"}, errLast: true}
	switch g.r.IntN(5) {
	case 0:
		s.results, s.zeros = []string{"int", "error"}, []string{"0"}
	case 1:
		s.tparams, s.params = "[T any]", []string{"ctx context.Context", "v T"}
		s.results, s.zeros = []string{"T", "error"}, []string{"v"}
	case 2:
		s.results, s.errLast = nil, false
	}
	b := &body{}
	switch g.r.IntN(4) {
	case 0:
		// The loop runs in a goroutine.
		b.l("go func() {")
		g.retryLoop(f, s.noResults(), b)
		b.l("}()")
		b.l("%s", s.ok())
	case 1:
		// The loop runs in a closure the function calls.
		op := g.id("op")
		b.l("%s := func() error {", op)
		g.retryLoop(f, s.closure(), b)
		b.l("return errors.New(\"gave up\")")
		f.imp("errors")
		b.l("}")
		b.l("if err := %s(); err != nil {", op)
		b.l("%s", s.ret("err"))
		b.l("}")
		b.l("%s", s.ok())
	default:
		g.retryLoop(f, s, b)
		if s.errLast {
			f.imp("errors")
			b.l("%s", s.ret("errors.New(\"gave up\")"))
		}
	}
	f.decl("%s", fn(s, b))
}

// retryLoop adds a counted loop that calls, returns on success and waits.
func (g *gen) retryLoop(f *file, s *sig, b *body) {
	a := g.id("attempt")
	label := ""
	if g.chance(25) {
		label = g.id("Retry")
		b.l("%s:", label)
	}
	if g.chance(50) {
		b.l("for %s := 0; %s < 3; %s++ {", a, a, a)
	} else {
		b.l("for %s := 1; %s <= 3; %s++ {", a, a, a)
	}
	ctx := "ctx"
	if g.chance(15) {
		ctx = "context.Background()"
	}
	b.l("if err := work(%s, Item{ID: \"x\"}); err == nil {", ctx)
	b.l("%s", s.ok())
	b.l("}")
	d := g.pick("100*time.Millisecond", "time.Second", "250*time.Millisecond")
	switch g.r.IntN(5) {
	case 0:
		b.l("<-time.After(%s)", d)
	case 1:
		b.l("select {")
		b.l("case <-ctx.Done():")
		b.l("%s", s.ret("ctx.Err()"))
		b.l("case <-time.After(%s):", d)
		b.l("}")
	case 2:
		b.l("time.Sleep(time.Duration(%s) * %s)", a, d)
	default:
		b.l("time.Sleep(%s)", d)
	}
	if label != "" {
		b.l("continue %s", label)
	}
	b.l("}")
}

// breaker adds two functions that call different dependencies through
// one shared circuit breaker.
func (g *gen) breaker(f *file) {
	f.imp("context", "github.com/sony/gobreaker")
	g.need("fetch")
	cb := g.id("cb")
	f.decl("var %s = gobreaker.NewCircuitBreaker(gobreaker.Settings{Name: %q})", cb, cb)
	for _, host := range []string{"inventory", "shipping"} {
		name := g.id("Via")
		f.decl("func %s(ctx context.Context) (interface{}, error) {\n\treturn %s.Execute(func() (interface{}, error) {\n\t\treturn fetch(ctx, \"https://%s.example.com/v1\")\n\t})\n}", name, cb, host)
	}
}
