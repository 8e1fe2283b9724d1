package fixgen

import "strings"

// Outbound calls: with the caller's context, context.Background() or TODO(),
// a deadline in scope, or none; in plain code, branches, labelled loops,
// closures, select cases, defer and go statements.

// ctxFunc adds a function making one to three outbound calls.
func (g *gen) ctxFunc(f *file) {
	s := g.ctxSig(f)
	b := &body{}
	ctxs, first := g.ctxChoices(f, s, b)
	n := 1 + g.r.IntN(3)
	for i := 0; i < n; i++ {
		if i == 0 && first != "" {
			g.placed(f, s, b, []string{first})
			continue
		}
		g.placed(f, s, b, ctxs)
	}
	b.l("%s", s.ok())
	f.decl("%s", fn(s, b))
}

// ctxChoices returns the context expressions calls in the function may
// get, declaring a derived or fresh deadline context first when chosen (the
// first call then gets it).
func (g *gen) ctxChoices(f *file, s *sig, b *body) (out []string, first string) {
	out = []string{"context.Background()", "context.TODO()"}
	if s.ctx != "" {
		out = append(out, s.ctx, s.ctx)
	}
	f.imp("context")
	if g.chance(30) {
		f.imp("time")
		name, cancel := g.id("tctx"), g.id("cancel")
		parent := "context.Background()"
		if s.ctx != "" && g.chance(60) {
			parent = s.ctx
		}
		b.l("%s, %s := context.WithTimeout(%s, %s)", name, cancel, parent, g.pick("time.Second", "2*time.Minute", "500*time.Millisecond"))
		b.l("defer %s()", cancel)
		b.l("if err := %s.Err(); err != nil {\n%s\n}", name, s.ret("err"))
		out = append(out, name)
		first = name
	}
	if g.chance(15) {
		// A context for another purpose, in a block of its own.
		f.imp("time")
		name, cancel := g.id("sctx"), g.id("cancel")
		b.l("{")
		b.l("%s, %s := context.WithTimeout(context.Background(), time.Second)", name, cancel)
		b.l("defer %s()", cancel)
		b.l("_ = %s", name)
		b.l("}")
	}
	return out, first
}

// placed adds one call to b, in a randomly chosen place.
func (g *gen) placed(f *file, s *sig, b *body, ctxs []string) {
	ctx := g.pick(ctxs...)
	switch g.r.IntN(12) {
	case 0:
		g.need("verbose")
		b.l("if !verbose {")
		g.call(f, s, b, ctx)
		b.l("}")
	case 1:
		g.need("verbose")
		b.l("switch {")
		b.l("case verbose:")
		b.l("default:")
		g.call(f, s, b, ctx)
		b.l("}")
	case 2:
		label := g.id("Loop")
		i := g.id("i")
		b.l("%s:", label)
		b.l("for %s := 0; %s < 2; %s++ {", i, i, i)
		g.call(f, s, b, ctx)
		b.l("if %s > 0 {", i)
		b.l("break %s", label)
		b.l("}")
		b.l("}")
	case 3:
		// A closure called at once.
		cs := s.closure()
		b.l("if err := func() error {")
		g.call(f, cs, b, ctx)
		b.l("return nil")
		b.l("}(); err != nil {")
		b.l("%s", s.ret("err"))
		b.l("}")
	case 4:
		g.deferred(f, b, ctx)
	case 5:
		g.started(f, b, ctx)
	case 6:
		if s.ctx == "" || s.handler {
			g.call(f, s, b, ctx)
			return
		}
		// Runs once the caller's context is done: a fresh context is right.
		b.l("select {")
		b.l("case <-%s.Done():", s.ctx)
		b.l("func() {")
		g.call(f, s.noResults(), b, g.pick("context.Background()", "context.TODO()"))
		b.l("}()")
		b.l("default:")
		b.l("}")
	default:
		g.call(f, s, b, ctx)
	}
}

// call adds one outbound call with its error handling.
func (g *gen) call(f *file, s *sig, b *body, ctx string) {
	if strings.Contains(ctx, "context.") {
		f.imp("context") // a call that ignores ctx leaves it unused: harmless
	}
	ret := s.ret("err")
	switch g.r.IntN(15) {
	case 13:
		// Two calls in one statement.
		g.need("count")
		n := g.id("n")
		b.l("if %s := count(%s) + count(%s); %s < 0 {", n, ctx, g.pick(ctx, "context.Background()"), n)
		b.l("%s", s.ret("errors.New(\"negative\")"))
		f.imp("errors")
		b.l("}")
	case 14:
		// A deferred call whose argument changes before it runs.
		g.need("db")
		id := g.id("id")
		b.l("%s := \"a\"", id)
		b.l("defer db.ExecContext(%s, \"release\", %s)", ctx, id)
		b.l("%s = \"b\"", id)
		b.l("_ = %s", id)
	case 0:
		g.need("db")
		rows := g.id("rows")
		b.l("%s, err := db.QueryContext(%s, \"select 1\")", rows, ctx)
		b.l("if err != nil {\n%s\n}", ret)
		b.l("defer %s.Close()", rows)
		b.l("for %s.Next() {\n}", rows)
		b.l("if err := %s.Err(); err != nil {\n%s\n}", rows, ret)
	case 1:
		g.need("db")
		b.l("if _, err := db.ExecContext(%s, \"update t set n = n + 1\"); err != nil {\n%s\n}", ctx, ret)
	case 2:
		g.need("db")
		switch g.r.IntN(3) {
		case 0:
			b.l("if _, err := db.Exec(\"delete from t\"); err != nil {\n%s\n}", ret)
		case 1:
			b.l("if err := db.Ping(); err != nil {\n%s\n}", ret)
		default:
			n := g.id("n")
			b.l("var %s int", n)
			b.l("if err := db.QueryRow(\"select 1\").Scan(&%s); err != nil {\n%s\n}", n, ret)
		}
	case 3:
		g.need("hc")
		f.imp("net/http")
		req, resp := g.id("req"), g.id("resp")
		b.l("%s, err := http.NewRequest(http.MethodGet, \"http://example.com\", nil)", req)
		b.l("if err != nil {\n%s\n}", ret)
		b.l("%s, err := hc.Do(%s)", resp, req)
		b.l("if err != nil {\n%s\n}", ret)
		b.l("%s.Body.Close()", resp)
	case 4:
		f.imp("net/http")
		req, resp := g.id("req"), g.id("resp")
		b.l("%s, err := http.NewRequestWithContext(%s, http.MethodGet, \"http://example.com\", nil)", req, ctx)
		b.l("if err != nil {\n%s\n}", ret)
		b.l("%s, err := http.DefaultClient.Do(%s)", resp, req)
		b.l("if err != nil {\n%s\n}", ret)
		b.l("defer %s.Body.Close()", resp)
	case 5:
		f.imp("net/http")
		resp := g.id("resp")
		b.l("%s, err := http.Get(\"http://example.com\")", resp)
		b.l("if err != nil {\n%s\n}", ret)
		b.l("%s.Body.Close()", resp)
	case 6:
		f.imp("net")
		c := g.id("conn")
		b.l("%s, err := net.Dial(\"tcp\", \"example.com:80\")", c)
		b.l("if err != nil {\n%s\n}", ret)
		b.l("%s.Close()", c)
	case 7:
		g.need("echo")
		b.l("if _, err := echo.Echo(%s, &EchoReq{Msg: \"hi\"}); err != nil {\n%s\n}", ctx, ret)
	case 8:
		g.need("fetch")
		b.l("if _, err := fetch(%s, \"http://example.com\"); err != nil {\n%s\n}", ctx, ret)
	case 9:
		g.need("db")
		tx := g.id("tx")
		b.l("%s, err := db.BeginTx(%s, nil)", tx, ctx)
		b.l("if err != nil {\n%s\n}", ret)
		b.l("if _, err := %s.ExecContext(%s, \"insert into t values (1)\"); err != nil {", tx, ctx)
		b.l("%s.Rollback()", tx)
		b.l("%s", ret)
		b.l("}")
		b.l("if err := %s.Commit(); err != nil {\n%s\n}", tx, ret)
	case 10:
		g.need("db")
		n := g.id("n")
		b.l("var %s int", n)
		b.l("if err := db.QueryRowContext(%s, \"select 1\").Scan(&%s); err != nil {\n%s\n}", ctx, n, ret)
	case 11:
		g.need("echo")
		st := g.id("stream")
		b.l("%s, err := echo.Watch(%s, &EchoReq{})", st, ctx)
		b.l("if err != nil {\n%s\n}", ret)
		b.l("for {")
		b.l("if _, err := %s.Recv(); err != nil {", st)
		b.l("break")
		b.l("}")
		b.l("}")
	default:
		g.need("db")
		b.l("if err := db.PingContext(%s); err != nil {\n%s\n}", ctx, ret)
	}
}

// deferred adds a deferred outbound call.
func (g *gen) deferred(f *file, b *body, ctx string) {
	if strings.Contains(ctx, "context.") {
		f.imp("context")
	}
	g.need("db")
	switch g.r.IntN(3) {
	case 0:
		b.l("defer db.ExecContext(%s, \"unlock\")", ctx)
	case 1:
		b.l("defer func() {")
		b.l("_, _ = db.ExecContext(%s, \"unlock\")", ctx)
		b.l("}()")
	default:
		g.need("fetch")
		b.l("defer fetch(%s, \"http://example.com/done\")", ctx)
	}
}

// started adds an outbound call in a goroutine.
func (g *gen) started(f *file, b *body, ctx string) {
	if strings.Contains(ctx, "context.") {
		f.imp("context")
	}
	switch g.r.IntN(3) {
	case 0:
		g.need("db")
		b.l("go db.ExecContext(%s, \"audit\")", ctx)
	case 1:
		g.need("fetch")
		b.l("go func() {")
		b.l("_, _ = fetch(%s, \"http://example.com/audit\")", ctx)
		b.l("}()")
	default:
		g.need("db")
		b.l("go func() {")
		b.l("if err := db.PingContext(%s); err != nil {", ctx)
		b.l("return")
		b.l("}")
		b.l("}()")
	}
}

// returnsLive adds a function that returns (or keeps) a value that lives on
// the context of the call that made it: rows, a transaction, a response, a
// stream.
func (g *gen) returnsLive(f *file) {
	f.imp("context")
	name := g.id("Open")
	ctx := g.pick("context.Background()", "context.TODO()")
	hasCtx := g.chance(40)
	params := ""
	if hasCtx {
		params = "ctx context.Context"
		if g.chance(50) {
			ctx = "ctx"
		}
	}
	switch g.r.IntN(6) {
	case 0:
		g.need("db")
		f.imp("database/sql")
		f.decl("func %s(%s) (*sql.Rows, error) {\n\treturn db.QueryContext(%s, \"select 1\")\n}", name, params, ctx)
	case 1:
		g.need("db")
		f.imp("database/sql")
		f.decl("func %s(%s) (*sql.Tx, error) {\n\ttx, err := db.BeginTx(%s, nil)\n\tif err != nil {\n\t\treturn nil, err\n\t}\n\treturn tx, nil\n}", name, params, ctx)
	case 2:
		g.need("open")
		f.imp("net/http")
		f.decl("func %s(%s) (*http.Response, error) {\n\treturn open(%s, \"http://example.com\")\n}", name, params, ctx)
	case 3:
		g.need("echo")
		f.decl("func %s(%s) (Echo_WatchClient, error) {\n\treturn echo.Watch(%s, &EchoReq{})\n}", name, params, ctx)
	case 4:
		g.need("db")
		f.imp("database/sql")
		typ := g.id("cursor")
		f.decl("type %s struct{ rows *sql.Rows }", typ)
		f.decl("func (c *%s) %s(%s) error {\n\trows, err := db.QueryContext(%s, \"select 1\")\n\tif err != nil {\n\t\treturn err\n\t}\n\tc.rows = rows\n\treturn nil\n}", typ, name, params, ctx)
	default:
		g.need("db")
		f.imp("database/sql")
		f.decl("func %s(%s) (*sql.Conn, error) {\n\treturn db.Conn(%s)\n}", name, params, ctx)
	}
}
