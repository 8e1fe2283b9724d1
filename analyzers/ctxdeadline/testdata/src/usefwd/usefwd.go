// Package usefwd calls package fwd: facts carry the forwarding across the
// package boundary.
package usefwd

import (
	"context"
	"database/sql"
	"net/http"
	"time"

	"fwd"

	"google.golang.org/grpc"
)

func nightly(c *fwd.Client, db *sql.DB) {
	resp, err := c.Fetch(context.Background(), "/export") // want `\(\*fwd.Client\).Fetch gets context.Background\(\), which has no deadline, and forwards it to \(\*http.Client\).Do`
	if err == nil {
		resp.Body.Close()
	}
	_, _ = fwd.Count(context.TODO(), db)            // want `fwd.Count gets context.TODO\(\), which has no deadline, and forwards it to \(\*sql.DB\).QueryRowContext`
	_ = fwd.Lookup[string](context.TODO(), db, "k") // want `fwd.Lookup gets context.TODO\(\)`
	_ = fwd.Lookup(context.TODO(), db, 42)          // want `fwd.Lookup gets context.TODO\(\)`

	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	_, _ = fwd.Count(ctx, db)
}

// The client a forwarding helper sends with comes from its caller.
func clients(url string, hc *http.Client) {
	_, _ = fwd.GetJSON[int](context.Background(), http.DefaultClient, url)                 // want `fwd.GetJSON gets context.Background\(\), which has no deadline, and forwards it to \(\*http.Client\).Do`
	_, _ = fwd.Rates(context.Background(), &http.Client{}, url)                            // want `fwd.Rates gets context.Background\(\), which has no deadline, and forwards it to \(\*http.Client\).Do \(through fwd.GetJSON\)`
	_, _ = fwd.GetJSON[int](context.Background(), &http.Client{Timeout: time.Second}, url) // a Timeout bounds it
	_, _ = fwd.Rates(context.Background(), hc, url)                                        // a client of unknown make: silent
}

// Clients from another package's constructors are read through facts.
func constructed(url string) {
	resp, err := fwd.NewPooledClient().Get(url) // want `\(\*http.Client\).Get has no deadline`
	if err == nil {
		resp.Body.Close()
	}
	hc := fwd.NewBoundedClient(time.Second)
	if resp, err := hc.Get(url); err == nil {
		resp.Body.Close()
	}
	// Options applied out of sight: unknown, silent.
	if resp, err := fwd.NewConfigured(fwd.WithTimeout(time.Second)).Get(url); err == nil {
		resp.Body.Close()
	}
	if resp, err := fwd.NewLogged().Get(url); err == nil { // want `\(\*http.Client\).Get has no deadline`
		resp.Body.Close()
	}
}

// A connection from another package's dial helper with a deadline
// interceptor bounds its calls.
func dialled(addr string) error {
	conn, err := fwd.Dial(addr, time.Second)
	if err != nil {
		return err
	}
	return conn.Invoke(context.Background(), "/svc/M", nil, nil)
}

// A wrapper keeping the generated client in a field is bounded when it is
// made from a connection with a deadline interceptor, and not otherwise.
func wrapped(addr string) error {
	conn, err := fwd.Dial(addr, time.Second)
	if err != nil {
		return err
	}
	if _, err := fwd.NewStock(conn).Reserve(context.Background(), "sku"); err != nil {
		return err
	}
	st := fwd.NewStock(conn)
	if _, err := st.Reserve(context.Background(), "sku"); err != nil {
		return err
	}
	if err := fwd.NewOrders(conn).Place(context.Background(), "sku"); err != nil {
		return err
	}
	if err := st.ReserveOne(context.Background()); err != nil {
		return err
	}
	plain, err := grpc.NewClient(addr)
	if err != nil {
		return err
	}
	if err := fwd.NewStock(plain).ReserveOne(context.Background()); err != nil { // want `\(\*fwd.Stock\).ReserveOne gets context.Background\(\), which has no deadline, and forwards it to \(fwd.StockClient\).Reserve \(through \(\*fwd.Stock\).Reserve\)`
		return err
	}
	_, err = fwd.NewStock(plain).Reserve(context.Background(), "sku") // want `\(\*fwd.Stock\).Reserve gets context.Background\(\), which has no deadline, and forwards it to \(fwd.StockClient\).Reserve`
	if err != nil {
		return err
	}
	return fwd.NewOrders(plain).Place(context.Background(), "sku") // want `\(\*fwd.Orders\).Place gets context.Background\(\), which has no deadline, and forwards it to \(fwd.StockClient\).Reserve \(through \(\*fwd.Stock\).Reserve\)`
}

// A Stock of unknown make (a parameter) may come from a connection with a
// deadline interceptor: its bounds cannot be seen, silent.
func given(s *fwd.Stock) error {
	_, err := s.Reserve(context.Background(), "sku")
	return err
}

// A wrapper returned by a dial helper of another package: bounded when the
// helper dials with a deadline interceptor.
func dialledWrapper(addr string) error {
	s, err := fwd.DialStock(addr, time.Second)
	if err != nil {
		return err
	}
	if _, err := s.Reserve(context.Background(), "sku"); err != nil {
		return err
	}
	p, err := fwd.DialStockPlain(addr)
	if err != nil {
		return err
	}
	_, err = p.Reserve(context.Background(), "sku") // want `\(\*fwd.Stock\).Reserve gets context.Background\(\), which has no deadline`
	return err
}

// A function handed the wrapper: bounded as its argument is.
func heartbeat(ctx context.Context, s *fwd.Stock) error {
	_, err := s.Reserve(ctx, "hb")
	return err
}

func beat(addr string) {
	s, _ := fwd.DialStock(addr, time.Second)
	_ = heartbeat(context.Background(), s)
	p, _ := fwd.DialStockPlain(addr)
	_ = heartbeat(context.Background(), p) // want `usefwd.heartbeat gets context.Background\(\), which has no deadline, and forwards it to \(fwd.StockClient\).Reserve \(through \(\*fwd.Stock\).Reserve\)`
}
