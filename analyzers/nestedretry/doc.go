// Package nestedretry defines an Analyzer that reports retry layers nested
// inside each other, across functions and packages.
//
// # Analyzer nestedretry
//
// nestedretry: report calls inside a retry loop or retry helper that reach a function that retries itself
//
// Retries multiply: a call retried 3 times by a function that is itself
// retried 3 times by its caller sends 9 requests to a failing dependency
// for one user action, and four such layers send 81. A dependency that is
// already overloaded gets the most traffic exactly when it can least take
// it, and the caller's deadline is spent waiting on the innermost layer.
// nestedretry reports
//
//   - a call on the retried path of a retry loop (a call whose failure can
//     lead to another iteration), or inside the operation handed to a known
//     retry helper (cenkalti/backoff Retry, retry-go Do, sethvargo/go-retry
//     Do and DoValue (WithMaxRetries(n, b): n+1 attempts), failsafe-go
//     executors with a retry policy, go-resiliency's retrier, retryablehttp
//     clients, resil.Retry, a team's own helpers from the configuration),
//   - that reaches, directly or through any number of functions and
//     packages, a function that retries itself: with a retry loop or a
//     retry helper whose operation is proven to reach another process (an
//     outbound call of the knowledge table, a function of the module that
//     makes one, a function whose fact says it retries, a failure read as
//     an HTTP status or a gRPC code). A loop or helper retrying a call
//     through an interface or a function value that cannot be followed is
//     no proven layer: the factor multiplies only proven layers.
//   - a retry loop written inside another in one function, when both
//     retry the same call: every outer attempt runs the inner loop to its
//     end (a loop whose only operations are in a loop it holds counts them
//     as its own). A loop over the items of a batch or a periodic round
//     that goes on after a success is no outer layer.
//
// A team's own retry helper needs no configuration when its code shows it:
// a function of the module that calls one of its function parameters on the
// retried path of a retry loop of its own body, generic or not,
//
//	func Do[T any](ctx context.Context, attempts int, f func(context.Context) (T, error)) (T, error) {
//		for i := 0; i < attempts; i++ {
//			if v, err = f(ctx); err == nil {
//				return v, nil
//			}
//			pause(ctx)
//		}
//		...
//
// is a retry layer at each of its calls, in its package and, through its
// fact ("retries its parameter #2 up to parameter #1 attempts", counted from
// 0), in any other: the operation handed to it (a function literal, or a
// function or method value) is followed like a library helper's, and its
// attempts are the constant in its loop or the caller's constant argument
// for the parameter bounding it; Do(ctx, 1, f) makes one attempt and is no
// layer. So is a function that hands a function parameter to a known retry
// helper as its operation, directly or through a literal that only calls it
// (return retry.DoWithData(op, retry.Attempts(3), retry.Context(ctx))),
// with the library call's attempts, and one that hands it to another such
// helper of its package (Value calling Do(ctx, attempts, func(ctx) error {
// v, err = f(ctx); return err })), with that helper's attempts read from
// the argument. A helper that calls its parameter once,
// keeps it in a variable before calling it, or calls it for each element of
// a collection is not a retry helper; an operation that is itself a
// parameter is not followed.
//
// The message names the chain and the product of the attempts of every
// layer, for example
//
//	retry amplification 3×3 = 9: this loop (3 attempts) calls store.Get, which retries (3 attempts) in store.fetch, so a failing dependency gets 9 requests for one call; retry at one layer only
//
// Attempts, not retries, are counted: for attempt := 0; attempt < 3;
// attempt++, retry.Attempts(3), backoff.WithMaxRetries(b, 2), failsafe
// WithMaxRetries(2) and retryablehttp RetryMax = 2 are all 3 attempts. A
// helper's configuration is followed through local variables and through a
// struct field the package gives one value (&Client{rc: rc}). A loop bound
// that is a parameter of the function (for i := 0; i < attempts; i++) is
// read from the caller's argument when it is a constant: with 1 that layer
// makes one request and does not count. A local variable given only
// constants counts as the largest of them, unless one of them is 1: then
// whether the layer retries depends on the run (a retry flag), and it does
// not count. A bound that is not a constant is named by its expression, in
// the terms of the function that retries (for attempt := 0; attempt <=
// cfg.MaxRetries; attempt++ prints as cfg.MaxRetries+1, "attempts:
// cfg.MaxRetries+1"); a configuration changed out of sight prints as n. A
// chain of layers none of whose counts is known is not reported: nothing
// proves more than one request per layer.
//
// A layer counts only on the path the call takes: a retry loop or retrying
// call that a function runs in a goroutine it starts, or in a function
// literal it returns, stores or hands to time.AfterFunc, is no layer of
// that function; a layer reached only under a condition on a parameter
// (if !retry { return once(ctx) }; if retries > 0 { for ... }) is not taken
// by a call whose constant argument fails it (do(ctx, false)), through any
// number of wrappers passing the parameter on; so is a loop whose attempt
// count is a local variable that only such a condition raises above one
// (attempts := 1; if withRetry { attempts = 5 }).
//
// Layers multiply only for a failure both retry. A layer whose exits return
// every error but some at once retries only those: a sentinel
// (errors.Is(err, errTransient), err == io.EOF), an error type
// (errors.As(err, &tempErr)), some HTTP statuses or gRPC codes; a library
// helper given a retry predicate (retry.RetryIf) retries what the
// predicate returns true for. An inner layer counts when the outer one
// retries every error, or the same class; layers whose classes are
// disjoint (the outer retries only errConflict, the inner only
// errTransient) are no proven product, and neither are layers one of which
// retries on a condition the walk cannot relate to the other's class
// (if !shouldRetry(err) over a layer retrying only errTransient). A library
// helper that retries an operation of its own (retryablehttp's Do) gives
// up with its own failures, never with a sentinel of the user's module: an
// outer loop that retries only such sentinels (errors.Is(err, errPending)
// after a 200) does not multiply it. A guard
// on a field of an options parameter (if !opts.Retry { return once(ctx) })
// is settled by a call's composite literal argument (options{Retry: false},
// or a literal leaving the field out): then the layer is not taken.
//
// Not reported: calls through interfaces or function values (unknown:
// silent), other than a team's own helper's operation above; a loop over a collection that moves on to the next element after
// a failure (not a retry loop); a failsafe executor holding only a circuit
// breaker; retries of different dependencies side by side, one after the
// other; loops whose retried calls stay on this machine (a loopback
// address such as 127.0.0.1 or localhost, a unix socket, a subprocess:
// issue 13, rule 1); both layers using resil.Retry with the operation's context passed
// down (the runtime makes the inner layer attempt once).
//
// Example:
//
//	for attempt := 0; attempt < 3; attempt++ {
//		v, err := store.Get(ctx, key) // store.Get retries 3 times itself: 9 requests
//		...
//	}
//
// Instead, retry at one layer only: let the outer layer own the retries and
// make the inner one attempt once, or use resil.Retry at every layer and
// pass the operation's context down.
package nestedretry
