package resil

import "context"

// Retry at one layer only.
//
// A request that passes through several layers, each with its own retry
// loop, is attempted the product of their attempt counts: 3 attempts at 4
// layers is 81 calls to the bottom service. resil makes ownership of retries
// a context-carried contract instead: the outermost Retry that will actually
// retry (attempts > 1) marks the context it hands to the operation, and any
// Retry that receives a marked context makes exactly one attempt — still
// planning against the deadline and still going through its breaker and
// bulkhead — and passes the attempt's error up unchanged, so the owner can
// classify and retry it.
//
// The mark crosses process boundaries only if a transport carries it; the
// resilhttp package does so with a request header.

// ownedKey is the context key of the mark. Its value is always true.
type ownedKey struct{}

// WithRetryOwned returns ctx marked as "an outer layer owns retries": every
// Retry called with it (or a context derived from it) makes one attempt.
// Transports use it on the server side to honour a mark sent by the client.
func WithRetryOwned(ctx context.Context) context.Context {
	if RetryOwned(ctx) {
		return ctx
	}
	return markOwned(ctx)
}

// The marked roots. A marked context is an immutable function of its
// parent, so the mark of context.Background() or context.TODO() — the
// parents of background jobs, workers and command-line tools — is made once
// and shared by every Retry, and marking them allocates nothing. Any other
// parent costs one context node per outermost Retry: the mark must be a
// context only that Retry's operation sees, and a pooled one could be kept
// by the operation and change under it.
var (
	ownedBackground = context.WithValue(context.Background(), ownedKey{}, true)
	ownedTODO       = context.WithValue(context.TODO(), ownedKey{}, true)
)

// markOwned returns ctx with the mark, ctx not yet being marked.
func markOwned(ctx context.Context) context.Context {
	switch ctx {
	case context.Background():
		return ownedBackground
	case context.TODO():
		return ownedTODO
	}
	return context.WithValue(ctx, ownedKey{}, true)
}

// RetryOwned reports whether an outer layer owns retries for ctx, i.e.
// whether ctx (or a parent) was marked by Retry or by [WithRetryOwned].
func RetryOwned(ctx context.Context) bool {
	v, _ := ctx.Value(ownedKey{}).(bool)
	return v
}
