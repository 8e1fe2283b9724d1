// Package ctxdeadline defines an Analyzer that reports outbound calls that
// can hang forever because nothing gives them a deadline.
//
// # Analyzer ctxdeadline
//
// ctxdeadline: report outbound calls (HTTP, gRPC, dials, database/sql) that have no deadline
//
// A call to another process needs a deadline: a slow or silent peer
// otherwise holds the calling goroutine, its memory and its connection
// forever, and the caller's own budget is spent waiting. ctxdeadline reports
//
//   - an outbound call that takes no context at all and has no other bound:
//     http.Get/Head/Post/PostForm (http.DefaultClient has no Timeout),
//     (*http.Client).Get/... on a client built without Timeout, net.Dial,
//     tls.Dial, database/sql methods that have a Context variant
//     (db.Query, db.Exec, tx.Exec, stmt.Query, ...), and the same calls of
//     hashicorp/go-retryablehttp (every attempt is bounded only by its
//     HTTPClient's Timeout, which NewClient does not set);
//   - an outbound call whose context is provably deadline-free — it comes
//     from context.Background() or TODO() through only WithValue,
//     WithCancel and assignments, or from WithoutCancel — while its client
//     has no Timeout: db.QueryContext(context.Background(), ...), a gRPC
//     method called with context.TODO(), client.Do(req) for a request built
//     on Background;
//   - http.NewRequest, on its own line, when the function sends the
//     request (to an outbound send, a helper that sends it, or a function
//     value or interface method that may) and has a caller's context in
//     scope, or sends it itself with a client nothing else bounds (unless
//     the request gets a context first: req.WithContext(ctx),
//     req.Clone(ctx), or is handed with the context to a function value or
//     an interface method). A request returned to the caller or kept in a
//     field is judged where it is sent: a send of a request that a helper
//     builds without a context is reported there — where the caller's
//     context is in scope and not attached, or where nothing else bounds
//     the send; a request written to a raw connection is not sent by a
//     client;
//   - a call that passes a deadline-free context to a function that
//     forwards it, through any number of helpers and packages, to such an
//     outbound call; the message names the chain;
//   - requests across helpers: a request built without a deadline handed
//     to a function of the module that sends the request it is given
//     (func (c *Client) do(req *http.Request) { return c.hc.Do(req) }),
//     through any number of helpers and packages, with a client nothing
//     else bounds — http.NewRequest is reported on its own line, naming the
//     helper's send; and a send of a request that a helper returns (alone
//     or in a slice) built without a context is reported at the send;
//   - a read from a raw connection that the function dials itself (net.Dial,
//     net.DialTimeout, a Dialer, tls.Dial) when no deadline is set on the
//     connection before it (conn.SetDeadline, conn.SetReadDeadline): the
//     dial's timeout bounds the connect only, and a server that accepts and
//     then stays silent holds the read until the connection is closed. The
//     read is conn.Read, io.ReadFull/ReadAll/Copy, http.ReadResponse, or a
//     read of a reader made over the connection (bufio, encoding/json,
//     net/textproto, tls.Client's Handshake); reported at the first one.
//     Only when every use of the connection is seen: one handed to another
//     function, stored in a field, returned, used by a closure (a watcher
//     that closes it when a context ends) or assigned again is silent.
//
// Calls that stay on this machine are not calls to a dependency and are
// never reported: a URL, address or gRPC target that is (or starts with) a
// loopback host — 127.0.0.0/8, ::1, localhost — or the local system (":8080",
// 0.0.0.0); a unix socket (network "unix", "unixgram", "unixpacket"; a
// unix:// or http+unix:// URL; an http.Client whose transport dials only
// unix sockets); a database/sql handle opened on an embedded engine (sql.Open
// with the driver name of SQLite or DuckDB, any handle in a package whose
// only linked SQL drivers are embedded ones, or any handle in a module whose
// go.mod, at go 1.17 or later, requires an embedded engine's driver and no
// driver of a database server); the process's own listener
// (the Addr of a net.Listen on a loopback or unspecified host, an httptest
// server's URL, or the Addr of its Listener unless the code replaced it). The target is read from constants, concatenations,
// fmt.Sprintf formats (a %s, %v or %d verb only with a proven argument:
// fmt.Sprintf("http://%s:%d", "localhost", port) is local, a host from
// configuration is not), net.JoinHostPort, url.URL literals and url.Parse,
// what a function of the module returns (in any of its packages, one that
// imports no client too: cfg.AgentURL()), variables and unexported fields
// the package sets; a database handle, gRPC
// connection or HTTP client made by a function of the module (in another
// package too: its facts) is placed where that function makes it. A target
// out of sight may be remote, and the call is judged as one.
//
// A database statement that changes the schema (one that, as far as it can
// be read, begins CREATE, ALTER, DROP, TRUNCATE, RENAME, COMMENT, GRANT or
// REVOKE) is not reported: it is a migration step that runs as long as the
// table needs, bounded by whoever runs the migration, and a deadline would
// abort it halfway. The data statements of the same migration, and the
// Begin of its transaction, are judged like any other.
//
// Nothing else may bound the call: ctxdeadline reports only when every
// bound below the context is provably absent. For HTTP those are the
// client's Timeout and its transport's: a ResponseHeaderTimeout, or a dial
// function other than a dialer's own method, which may wrap every
// connection in read and write deadlines (a dial or TLS handshake timeout
// bounds only the connect, so http.DefaultClient and a client whose
// transport sets only those have no bound). For a dial, the dialer's
// Timeout or Deadline. For gRPC, the connection's options: a unary (for a
// stream, a stream) interceptor, a default service config with a "timeout",
// or options that cannot be read (from a variable, an interface method, or
// a function of another module) may bound it. An interceptor that passes
// its caller's context to the invoker unchanged (one that logs or counts)
// bounds nothing; options made by the module's own functions are read
// through their facts, and the options a caller hands to a dial helper
// that adds them to its own (Dial(target string, extra
// ...grpc.DialOption)) are read at each call. A client, transport or connection
// is followed through variables, unexported fields the package alone sets,
// parameters of unexported functions called only directly (the arguments
// of every call), and constructors of the module (their facts); one handed
// in from out of sight (an exported function's parameter, an exported
// field) is of unknown make, and the call is not reported.
//
// Not reported: a context of unknown origin (a parameter, a field, the
// result of an unknown call) or one made from Background whose cancel a
// goroutine calls once such a context is done (it carries that context's
// cancellation and deadline) or whose cancel is kept for someone else to
// call (stored in a field, a map or a struct, returned or handed on: a
// subscription its owner stops with Unsubscribe or Stop), r.Context() of an
// inbound request, a context
// from WithTimeout/WithDeadline, a client with Timeout (set on its literal,
// by a field assignment, by a known constructor, or by a function of the
// module that returns it), a tls.Dialer whose NetDialer has a Timeout,
// net.DialTimeout, database/sql methods that have no Context variant
// (Tx.Commit, Rows.Next), Redis commands (a go-redis client has its own
// read and write timeouts, 3 s by default), kafka-go's
// Writer.WriteMessages (its WriteTimeout), minio-go and AWS SDK v2 service
// calls (their transports' dial and response timeouts), and gRPC streams
// that may rightly live as long as their context (a watch or subscription,
// or a stream whose reading is out of sight). A stream read to its end in
// view — drained until io.EOF (compared, errors.Is, or a case of a switch
// on the error), or finished with CloseAndRecv — waits on
// the server like a unary call and is reported like one. A method that
// forwards its caller's context to a generated client in its receiver's
// fields is judged where it is called, by how that receiver was made:
// NewStock(conn).Reserve(context.Background(), ...) is reported only if
// conn was dialled without such an option. When a caller's context is in
// scope and the call uses Background() or TODO() instead, that is
// detachedctx's finding and ctxdeadline stays silent. A gRPC call with
// WaitForReady(true) waits for the connection as well: its message says so
// (the option in the call, in a local slice of options passed with ..., in
// the connection's WithDefaultCallOptions, or a constant
// WithDefaultServiceConfig whose method config sets "waitForReady": true).
//
// Suggested fixes, when a caller's context is in scope: http.NewRequest →
// http.NewRequestWithContext(ctx, ...), net.Dial → (&net.Dialer{}).DialContext(ctx, ...),
// db.Query → db.QueryContext(ctx, ...) (and the other Context variants).
// Where no caller's context exists (main, a batch job) and the call is given
// context.Background() or TODO() directly, the fix passes a context with a
// deadline that is in scope (main's own ctx from WithTimeout) where it is the
// function's own budget and cannot be done yet (made at the top of the
// function, its cancel only deferred, not waited on before the call, the call
// not deferred, in a callback, in a branch on a done context or on the
// failure of work done on it: if err != nil after err := work(ctx)), or else
// bounds the call with context.WithTimeout and defers cancel(). In a
// goroutine the function does not wait for (go func() { ... }(), go f(...)),
// which outlives it, the caller's context is not the call's budget: the
// finding is worded as for code with no caller's context, and the fix
// bounds the call on its own. No timeout fix in a loop (also one made by a
// goto back over the call) or where a goto jumps over the declaration. A
// deferred or
// started call is wrapped in func() { ... }() so that its timeout starts when
// it runs (only when its receiver and arguments read the same then). No fix
// when a value the call returns lives on its context (rows, a transaction, a
// connection, a response, a stream) and the function returns or keeps it
// (also by handing it to a go statement: go io.Copy(w, resp.Body)): the
// deferred cancel would end it. The fixes hand over a caller's context
// only where it is still the caller's budget; they import only packages the
// module resolves.
//
// Example:
//
//	resp, err := http.Get(url) // http.Get has no deadline
//
// Instead:
//
//	ctx, cancel := context.WithTimeout(ctx, 2*time.Second)
//	defer cancel()
//	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
//	...
//	resp, err := client.Do(req)
package ctxdeadline
