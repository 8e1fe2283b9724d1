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
//     through a request built on it, or through helper functions that
//     forward it to one, even if they add a timeout of their own): the call
//     keeps running after the caller has gone.
//     Outbound calls are those of ctxdeadline, and also every command of a
//     Redis client (go-redis v8 and v9: rdb.Get(ctx, k), pipe.Exec(ctx)),
//     kafka-go's Writer.WriteMessages, and the methods taking a context of
//     minio-go's Client and of AWS SDK v2 service clients (s3, sqs, sns,
//     dynamodb, kinesis, secretsmanager).
//
// Calls that stay on this machine — to a loopback address (127.0.0.0/8,
// ::1, localhost), over a unix socket, or on an embedded database such as
// SQLite — are no dependency and are not reported (see ctxdeadline for how
// the target is read).
//
// On a request path — a function that serves an inbound request (an
// *http.Request parameter, in a declared function or in a function literal
// such as a HandlerFunc or a middleware's inner handler, or an RPC method
// of a gRPC server
// implementation: one its embedded Unimplemented…Server also has) —
// it also reports WithTimeout(ctx, d) and WithDeadline(ctx, time.Now().Add(d))
// with a constant d longer than the request budget (flag -request-budget,
// default 10s, which itself is allowed): by then the client has long given
// up. When a team sets a budget explicitly, this check applies to every
// function that receives a caller's context. Batch jobs, workers and
// commands legitimately wait longer, so they are not checked by default, and
// a context created in main or in a test is not a caller's budget.
//
// A call that must outlive the request can keep the request's values and
// drop its cancellation with context.WithoutCancel(ctx), bounded by its own
// WithTimeout; detachedctx accepts that. Code that runs only once the
// caller's context is done (after <-ctx.Done(), or in a select case
// <-ctx.Done()) needs a fresh context, as a graceful shutdown does with
// srv.Shutdown(context.WithTimeout(context.Background(), d)): not reported;
// nor is a deadline on Background() that is used only to close or shut
// things down (Close, Shutdown, Stop), wherever it is, nor work in a function
// handed to sync.Once.Do, sync.OnceFunc/OnceValue(s) or singleflight's Do:
// it is done once for every caller and must not end when the caller that
// happened to start it gives up.
//
// Suggested fix: replace context.Background()/TODO() with the caller's
// context (ctx, or r.Context()). Inside a goroutine the function starts
// (go func() { ... }()), which may be meant to outlive the caller, the fix
// is context.WithoutCancel(ctx) instead: the work keeps the caller's values
// and is not cancelled when the caller returns. No fix where the caller's
// context may be done by the time the call runs (a deferred call, a callback
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
