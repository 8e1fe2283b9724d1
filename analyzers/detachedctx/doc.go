// Package detachedctx defines an Analyzer that reports deadlines and
// outbound calls that ignore the caller's remaining budget.
//
// # Analyzer detachedctx
//
// detachedctx: report new deadlines and outbound calls that ignore the caller's context
//
// A function that receives a context — a context.Context parameter, or an
// *http.Request whose Context() carries the inbound request's deadline — has
// a budget: whatever it calls must finish before the caller gives up. A
// context parameter named _ counts too: the function is given the budget
// and throws it away (reported without a fix: name the parameter first).
// detachedctx reports, inside such a function,
//
//   - context.WithTimeout or WithDeadline on context.Background() or TODO():
//     the new deadline starts from zero and ignores how much of the caller's
//     budget is left, and the caller's cancellation never reaches the call;
//   - context.Background() or TODO() handed to an outbound call (directly,
//     through a request built on it, through helper functions that
//     forward it to one, even if they add a timeout of their own, or
//     through a request handed to a helper that sends it): the call keeps
//     running after the caller has gone. Inside the module that defines a
//     client listed by type (go-redis, minio-go), its own methods' bodies
//     are checked like any other code.
//     Outbound calls are those of ctxdeadline, and also every command of a
//     Redis client (go-redis v8 and v9: rdb.Get(ctx, k), pipe.Exec(ctx)),
//     kafka-go's Writer.WriteMessages, and the methods taking a context of
//     minio-go's Client and of AWS SDK v2 service clients (s3, sqs, sns,
//     dynamodb, kinesis, secretsmanager);
//   - context.Background() or TODO() handed as the context to the module's
//     own exported API (a function or method of the module whose first
//     parameter is a named context that it observes: one that only reads
//     values from it, ctx.Value(k), or compares it with nil drops nothing
//     when handed Background), or to a method reached through an
//     interface or a method value that takes a context first and can fail
//     (returns an error): an SDK client behind an interface. A method that
//     returns a context (a span starter) only derives one, and one that
//     cannot fail waits on nothing: not reported.
//
// Calls that stay on this machine — to a loopback address (127.0.0.0/8,
// ::1, localhost), over a unix socket, or on an embedded database such as
// SQLite — are no dependency and are not reported (see ctxdeadline for how
// the target is read).
//
// On a request path — a function that serves an inbound request (an
// *http.Request parameter, in a declared function or in a function literal
// such as a HandlerFunc or a middleware's inner handler, or an RPC method
// of a gRPC server implementation: a method of a service interface the
// type implements and that a registration function, RegisterXServer(s
// grpc.ServiceRegistrar, srv XServer), hands to a gRPC server) —
// it also reports WithTimeout(ctx, d) and WithDeadline(ctx, time.Now().Add(d))
// with a constant d longer than the request budget (flag -request-budget,
// default 10s, which itself is allowed): by then the client has long given
// up. A context used only by local work (a subprocess, files) or only by
// dials bounds no request: its timeout is not checked. When a team sets a budget explicitly, this check applies to every
// function that receives a caller's context. Batch jobs, workers and
// commands legitimately wait longer, so they are not checked by default, and
// a context created in main or in a test is not a caller's budget.
//
// Deliberate detachment is not reported. A call that must outlive the
// request can keep the request's values and drop its cancellation with
// context.WithoutCancel(ctx) (or a context type of its own that does the
// same), bounded by its own WithTimeout. A fresh context is right for
// cleanup on the way out: in a deferred call or function, in a branch taken
// on a failure or a cancellation that leaves the path (if err != nil {
// rollback(context.Background()); return err }, or the same case of a
// tagless switch) or whose else branch is the work (if err != nil {
// fail(context.Background()) } else { work(ctx) }), in cleanup that runs
// whatever the work on the caller's context gave, before that work's
// failure is handled (err := op(ctx); cleanup(context.Background());
// return err), and once the caller's
// context is done (after <-ctx.Done(), in a select case <-ctx.Done(), or
// after a loop that ends only then: for ctx.Err() == nil { ... }, or one
// whose only break is in a case <-ctx.Done() or on the failure of work
// handed a context (if err := beat(ctx); err != nil { break }: it fails
// once ctx is done, and what follows is cleanup), or a select whose every
// case but <-ctx.Done() returns or leaves otherwise, or after the function
// has cancelled the caller's context itself: ctx, cancel :=
// context.WithCancel(ctx); ...; cancel(); also in an unexported
// function of the package, never used as a value, whose every call is in
// such a place or in another such function),
// as a graceful shutdown does with srv.Shutdown(context.WithTimeout(
// context.Background(), d)). So it is for work that runs later: a function
// handed to time.AfterFunc, context.AfterFunc, http.Server's
// RegisterOnShutdown or a function of any package that stores it (a
// registered callback), runs it in a goroutine (go f()) or hands it on to
// one that does, a goroutine the function starts and does not wait
// for (no WaitGroup Wait, no receive from a channel the goroutine sends on
// outside a select that may leave by another case, such as <-ctx.Done();
// go func() { ... }() and go send(context.Background(), url) alike, and
// a function handed to a group's Go — errgroup, sync.WaitGroup, a conc
// pool — whose Wait the function does not call; one whose Wait it calls
// runs within the caller and is reported),
// Background handed to a function that hands that context to a goroutine
// it starts (a component's Start: ctx, cancel := context.WithCancel(ctx);
// go c.run(ctx)), whose context is the lifetime of background work, not the
// caller's budget;
// and work in a function handed to sync.Once.Do, sync.OnceFunc/OnceValue(s)
// or singleflight's Do: it is done once for every caller and must not end
// when the caller that happened to start it gives up.
//
// Nor is a caller's context that never ends: the context parameter of an
// unexported function, never used as a value, whose every call hands it
// context.Background() or TODO() has no deadline or cancellation to drop.
//
// A context made from Background whose cancel function a goroutine calls
// once the caller's context is done (go func() { <-ctx.Done(); ...;
// cancel() }(), or context.AfterFunc(ctx, cancel)) carries the caller's
// cancellation, delayed on purpose — a client's lifetime that lasts until
// it has unregistered — and is not reported.
//
// Suggested fix: replace context.Background()/TODO() with the caller's
// context (ctx, or r.Context()), also inside a goroutine the function waits
// for. No fix where the caller's context may be done by the time the call
// runs (a deferred call, after the function cancels it, a callback
// handed to a function not known to run it at once, a branch on ctx.Err() or
// context.Canceled), or where the call's rows or transaction are kept beyond
// the request (stored in a field). A fix that replaces the file's last use of
// package context deletes the import.
//
// Example:
//
//	func (h *Handler) Get(w http.ResponseWriter, r *http.Request) {
//		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second) // ignores r.Context()
//
// Instead:
//
//	ctx, cancel := context.WithTimeout(r.Context(), 2*time.Second)
package detachedctx
