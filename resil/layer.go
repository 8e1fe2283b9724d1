package resil

import (
	"context"
	"reflect"
	"sync"
	"sync/atomic"
	"time"
	"unsafe"
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

// markOwned returns ctx with the mark, ctx not yet being marked.
//
// A marked context must hold its parent, and a fresh parent (a server's new
// request context) would need a new node for it: one allocation on every
// request's first Retry. It needs none, because a mark is one machine word.
// An interface value is two words, its method table and its data; the
// method table is one of the few context types the program uses, so the
// mark keeps the parent's data word, and its own dynamic type — one of
// len(markers) otherwise identical types — says in which slot of a small
// process-wide table the parent's method table is. A one-word struct is
// stored in an interface as is, so converting it to context.Context
// allocates nothing. The mark is immutable, holds its parent alive like any
// context node, and gives back exactly the parent's interface value.
//
// Reading the two words of an interface relies on how the Go toolchains lay
// out interface values. The layout is checked once at start-up; if it ever
// differs, or once every slot is taken by another context type, a mark is
// an ordinary 16-byte node instead.
func markOwned(ctx context.Context) context.Context {
	if layoutOK {
		w := split(ctx)
		if i := marks.slot(w.tab); i >= 0 {
			return markers[i](w.data)
		}
	}
	return &owned{ctx}
}

// owned is a marked context as an ordinary node: its parent, plus the mark.
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

// iface is the layout of a non-empty interface value in the gc and gccgo
// toolchains: a pointer to the method table of the dynamic type, then the
// data word (the value itself if it is one pointer, else a pointer to an
// immutable copy).
type iface struct{ tab, data unsafe.Pointer }

func split(c context.Context) iface { return *(*iface)(unsafe.Pointer(&c)) }

func join(w iface) (c context.Context) {
	*(*iface)(unsafe.Pointer(&c)) = w
	return c
}

// layoutOK reports whether split and join see interfaces as iface: checked
// on a context whose data word is known.
var layoutOK = func() bool {
	probe := new(layoutProbe)
	var c context.Context = probe
	if unsafe.Sizeof(c) != unsafe.Sizeof(iface{}) {
		return false
	}
	w := split(c)
	return w.data == unsafe.Pointer(probe) && w.tab != nil && join(w) == c
}()

type layoutProbe struct{ context.Context }

// mark is a marked context in one word. Its type argument S is [k]byte for
// slot k of the method-table table; each k is its own dynamic type.
type mark[S any] struct{ data unsafe.Pointer }

func (m mark[S]) parent() context.Context {
	var s S
	return join(iface{unsafe.Pointer(marks.tabs[unsafe.Sizeof(s)].Load()), m.data})
}

func (m mark[S]) Deadline() (time.Time, bool) { return m.parent().Deadline() }
func (m mark[S]) Done() <-chan struct{}       { return m.parent().Done() }
func (m mark[S]) Err() error                  { return m.parent().Err() }
func (m mark[S]) String() string              { return contextName(m.parent()) + ".WithRetryOwned" }

func (m mark[S]) Value(key any) any {
	if _, ok := key.(ownedKey); ok {
		return true
	}
	return m.parent().Value(key)
}

// markers[k] makes the mark of a parent whose method table is in slot k.
var markers = [...]func(unsafe.Pointer) context.Context{
	func(d unsafe.Pointer) context.Context { return mark[[0]byte]{d} },
	func(d unsafe.Pointer) context.Context { return mark[[1]byte]{d} },
	func(d unsafe.Pointer) context.Context { return mark[[2]byte]{d} },
	func(d unsafe.Pointer) context.Context { return mark[[3]byte]{d} },
	func(d unsafe.Pointer) context.Context { return mark[[4]byte]{d} },
	func(d unsafe.Pointer) context.Context { return mark[[5]byte]{d} },
	func(d unsafe.Pointer) context.Context { return mark[[6]byte]{d} },
	func(d unsafe.Pointer) context.Context { return mark[[7]byte]{d} },
	func(d unsafe.Pointer) context.Context { return mark[[8]byte]{d} },
	func(d unsafe.Pointer) context.Context { return mark[[9]byte]{d} },
	func(d unsafe.Pointer) context.Context { return mark[[10]byte]{d} },
	func(d unsafe.Pointer) context.Context { return mark[[11]byte]{d} },
	func(d unsafe.Pointer) context.Context { return mark[[12]byte]{d} },
	func(d unsafe.Pointer) context.Context { return mark[[13]byte]{d} },
	func(d unsafe.Pointer) context.Context { return mark[[14]byte]{d} },
	func(d unsafe.Pointer) context.Context { return mark[[15]byte]{d} },
}

// marks is the process-wide table of method tables: slot k holds that of
// the k-th context type marked. A slot is filled once, under mu, and never
// changes; n counts the filled slots.
var marks methodTables

type methodTables struct {
	mu   sync.Mutex
	n    atomic.Int32
	tabs [len(markers)]atomic.Pointer[methodTable]
}

// methodTable stands for the runtime's method table of a type (opaque).
type methodTable struct{}

// slot returns the slot holding tab, filling a free one if need be; -1 if
// every slot holds another.
func (t *methodTables) slot(tab unsafe.Pointer) int {
	n := int(t.n.Load())
	for i := range n {
		if unsafe.Pointer(t.tabs[i].Load()) == tab {
			return i
		}
	}
	if n == len(t.tabs) {
		return -1
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	n = int(t.n.Load())
	for i := range n {
		if unsafe.Pointer(t.tabs[i].Load()) == tab {
			return i
		}
	}
	if n == len(t.tabs) {
		return -1
	}
	t.tabs[n].Store((*methodTable)(tab))
	t.n.Store(int32(n + 1))
	return n
}
