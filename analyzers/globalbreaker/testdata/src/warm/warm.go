package warm // want package:"guards function arguments with breakers"

// Package warm calls breaker helpers of other packages: each call runs its
// function argument through the helper's breaker.

import (
	"context"
	"net/http"

	"clients"
	"guard"
	"guardvia"

	gb2 "github.com/sony/gobreaker/v2"
)

type Warmer struct {
	users  *clients.Users
	orders *clients.Orders
	read   *gb2.CircuitBreaker[*http.Response]
	other  *gb2.CircuitBreaker[*http.Response]
	anyCB  *gb2.CircuitBreaker[any]
	g, g2  *guard.Guard
}

// One breaker handed to a helper of another package for two services.
func (w *Warmer) Reads(ctx context.Context) {
	_, _ = guard.Call(w.read, func() (*http.Response, error) { return w.users.Get(ctx, "1") })
	_, _ = guard.Call(w.read, func() (*http.Response, error) { return w.orders.List(ctx) }) // want `breaker w.read guards w.orders.base here but w.users.base at warm.go:28: when one of them fails, the breaker opens for both; give each dependency its own breaker`
}

func (w *Warmer) Run(ctx context.Context) {
	_ = guard.Run(w.anyCB, func() error { _, err := w.users.Get(ctx, "1"); return err })
	_ = guard.Run(w.anyCB, func() error { _, err := w.orders.List(ctx); return err }) // want `breaker w.anyCB guards w.orders.base here but w.users.base`
}

func (w *Warmer) Commands(ctx context.Context) {
	_ = guard.Command("warm", func() error { _, err := w.users.Get(ctx, "1"); return err })
	_ = guard.Command("warm", func() error { _, err := w.orders.List(ctx); return err }) // want `breaker "warm" guards w.orders.base here but w.users.base`
}

func (w *Warmer) Registry(ctx context.Context) {
	_, _ = guard.Registry("warm-registry", func() (any, error) { return w.users.Get(ctx, "1") })
	_, _ = guard.Registry("warm-registry", func() (any, error) { return w.orders.List(ctx) }) // want `breaker "warm-registry" guards w.orders.base here but w.users.base`
}

func (w *Warmer) Legacy(ctx context.Context) {
	_ = guard.Legacy(func() error { _, err := w.users.Get(ctx, "1"); return err })
	_ = guard.Legacy(func() error { _, err := w.orders.List(ctx); return err }) // want `breaker "legacy" guards w.orders.base here but w.users.base`
}

func (w *Warmer) Shared(ctx context.Context) {
	_, _ = guard.Shared(func() (any, error) { return w.users.Get(ctx, "1") })
	_, _ = guard.Shared(func() (any, error) { return w.orders.List(ctx) }) // want `breaker guard.shared guards w.orders.base here but w.users.base`
}

func (w *Warmer) Method(ctx context.Context) {
	_, _ = w.g.Do(func() (any, error) { return w.users.Get(ctx, "1") })
	_, _ = w.g.Do(func() (any, error) { return w.orders.List(ctx) }) // want `breaker w.g.cb guards w.orders.base here but w.users.base`
}

// Through a helper of a helper, in a package that imports no breaker.
func (w *Warmer) Via(ctx context.Context) {
	_, _ = guardvia.Via(w.g2, func() (any, error) { return w.users.Get(ctx, "1") })
	_, _ = guardvia.Via(w.g2, func() (any, error) { return w.orders.List(ctx) }) // want `breaker w.g2.cb guards w.orders.base here but w.users.base`
}

// A helper of this package over a helper of another.
func (w *Warmer) readThrough(fn func() (*http.Response, error)) (*http.Response, error) { // want readThrough:"guards param0 with recv.read"
	return guard.Call(w.read, fn)
}

func (w *Warmer) Pages(ctx context.Context) {
	_, _ = w.readThrough(func() (*http.Response, error) { return w.users.Get(ctx, "2") })
	_, _ = w.readThrough(func() (*http.Response, error) { return w.orders.List(ctx) }) // want `breaker w.read guards w.orders.base here but w.users.base`
}

// Fine: a breaker per dependency, one dependency per breaker, names
// computed per dependency, breakers looked up per service, helpers that
// run the function outside the breaker or build a breaker per call.
type Sep struct {
	users          *clients.Users
	orders         *clients.Orders
	uCB, oCB, same *gb2.CircuitBreaker[*http.Response]
	anyCB          *gb2.CircuitBreaker[any]
	uG, oG         *guard.Guard
	perService     map[string]*gb2.CircuitBreaker[*http.Response]
}

func (w *Sep) Separate(ctx context.Context) {
	_, _ = guard.Call(w.uCB, func() (*http.Response, error) { return w.users.Get(ctx, "1") })
	_, _ = guard.Call(w.oCB, func() (*http.Response, error) { return w.orders.List(ctx) })
	_ = guard.Command("users", func() error { _, err := w.users.Get(ctx, "1"); return err })
	_ = guard.Command("orders", func() error { _, err := w.orders.List(ctx); return err })
	_, _ = w.uG.Do(func() (any, error) { return w.users.Delete(ctx, "1") })
	_, _ = guardvia.Via(w.oG, func() (any, error) { return w.orders.List(ctx) })
}

func (w *Sep) SameDependency(ctx context.Context) {
	_, _ = guard.Call(w.same, func() (*http.Response, error) { return w.users.Get(ctx, "1") })
	_, _ = guard.Call(w.same, func() (*http.Response, error) { return w.users.Delete(ctx, "1") })
}

func (w *Sep) PerService(ctx context.Context, name string) {
	_, _ = guard.Call(w.perService[name], func() (*http.Response, error) { return w.users.Get(ctx, "1") })
	_, _ = guard.Call(w.perService[name], func() (*http.Response, error) { return w.orders.List(ctx) })
}

func (w *Sep) ByName(ctx context.Context, name string) {
	_ = guard.Command("warm:"+name, func() error { _, err := w.users.Get(ctx, "1"); return err })
	_ = guard.Command("warm:"+name, func() error { _, err := w.orders.List(ctx); return err })
}

func (w *Sep) Outside(ctx context.Context) {
	guard.Detached(w.anyCB, func() error { _, err := w.users.Get(ctx, "1"); return err })
	guard.Detached(w.anyCB, func() error { _, err := w.orders.List(ctx); return err })
	_ = guard.After(w.anyCB, func() error { _, err := w.users.Get(ctx, "1"); return err })
	_ = guard.After(w.anyCB, func() error { _, err := w.orders.List(ctx); return err })
}

// A method expression: its arguments start with the receiver; not followed.
func (w *Sep) MethodExpr(ctx context.Context) {
	_, _ = (*guard.Guard).Do(w.uG, func() (any, error) { return w.users.Get(ctx, "1") })
	_, _ = (*guard.Guard).Do(w.uG, func() (any, error) { return w.orders.List(ctx) })
}

func (w *Sep) Fresh(ctx context.Context) {
	_, _ = guard.Fresh(func() (any, error) { return w.users.Get(ctx, "1") })
	_, _ = guard.Fresh(func() (any, error) { return w.orders.List(ctx) })
}
