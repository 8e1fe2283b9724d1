package resil

import (
	"context"
	"reflect"
	"sync"
)

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

// owned is a marked context: its parent, plus the mark. It is immutable — a
// function of its parent only — so one owned node can serve every Retry on
// the same parent, which is what lets marking allocate nothing in the
// common cases (see markOwned).
type owned struct{ context.Context }

func (c *owned) Value(key any) any {
	if _, ok := key.(ownedKey); ok {
		return true
	}
	return c.Context.Value(key)
}

func (c *owned) String() string { return contextName(c.Context) + ".WithRetryOwned" }

func contextName(c context.Context) string {
	if s, ok := c.(interface{ String() string }); ok {
		return s.String()
	}
	return reflect.TypeOf(c).String()
}

// WithRetryOwned returns ctx marked as "an outer layer owns retries": every
// Retry called with it (or a context derived from it) makes one attempt.
// Transports use it on the server side to honour a mark sent by the client.
// A nil ctx counts as context.Background().
func WithRetryOwned(ctx context.Context) context.Context {
	if ctx == nil {
		ctx = context.Background()
	}
	if RetryOwned(ctx) {
		return ctx
	}
	return markOwned(ctx)
}

// The marks of context.Background() and context.TODO() — the parents of
// background jobs, workers and command-line tools — are made once and
// shared.
var (
	ownedBackground = &owned{context.Background()}
	ownedTODO       = &owned{context.TODO()}
)

// recentMarks remembers, per P, the last mark made for any other parent, so
// that consecutive outermost Retry calls on one parent (a worker's loop on
// its long-lived context, a handler making several calls with its request's
// context) share one mark. Sharing is safe because a mark never changes;
// the pool only ever hands a mark to a Retry on that mark's own parent, and
// a mark an operation keeps (in a goroutine, in a struct) stays valid. The
// pool holds at most a few marks per P and is emptied by the garbage
// collector, so a finished request's context is not kept alive for long.
var recentMarks sync.Pool // of *owned

// markOwned returns ctx with the mark, ctx not yet being marked.
//
// Cost: nothing for Background and TODO, nor for a parent whose mark was
// the last one made on this P; one 16-byte node otherwise.
func markOwned(ctx context.Context) context.Context {
	switch ctx {
	case context.Background():
		return ownedBackground
	case context.TODO():
		return ownedTODO
	}
	// Only a pointer-shaped parent is remembered: comparing two interface
	// values of one pointer type cannot panic, and the memo holding the
	// pointer keeps it from being reused for another context.
	if reflect.TypeOf(ctx).Kind() != reflect.Pointer {
		return &owned{ctx}
	}
	if m, _ := recentMarks.Get().(*owned); m != nil && m.Context == ctx {
		recentMarks.Put(m)
		return m
	}
	m := &owned{ctx}
	recentMarks.Put(m)
	return m
}

// RetryOwned reports whether an outer layer owns retries for ctx, i.e.
// whether ctx (or a parent) was marked by Retry or by [WithRetryOwned]. A
// nil ctx is not marked.
func RetryOwned(ctx context.Context) bool {
	if ctx == nil {
		return false
	}
	v, _ := ctx.Value(ownedKey{}).(bool)
	return v
}
