// Package fixes holds the cases with suggested fixes.
package fixes

import (
	"context"
	"database/sql"
	"fmt"
	"net"
	nethttp "net/http"
	"time"
)

// A request returned to the caller is judged where it is sent (the caller
// may give it a context): no finding here, no fix.
func request(ctx context.Context, url string) (*nethttp.Request, error) {
	return nethttp.NewRequest(nethttp.MethodGet, url, nil)
}

func dial(ctx context.Context, addr string) (net.Conn, error) {
	return net.Dial("tcp", addr) // want `net.Dial has no timeout`
}

func dialer(ctx context.Context, addr string) (net.Conn, error) {
	var d net.Dialer
	return d.Dial("tcp", addr) // want `\(\*net.Dialer\).Dial has no timeout`
}

func udp(addr string) (net.Conn, error) {
	return net.Dial("udp", addr) // a UDP "dial" sends nothing and cannot hang: silent
}

type store struct{ db *sql.DB }

func (s *store) rows(ctx context.Context) (*sql.Rows, error) {
	return s.db.Query("SELECT 1") // want `\(\*sql.DB\).Query has no deadline`
}

func (s *store) begin(ctx context.Context) (*sql.Tx, error) {
	return s.db.Begin() // want `\(\*sql.DB\).Begin has no deadline`
}

func (s *store) prepare(ctx context.Context, tx *sql.Tx) (*sql.Stmt, error) {
	return tx.Prepare("SELECT 1") // want `\(\*sql.Tx\).Prepare has no deadline`
}

func (s *store) shadowed(ctx context.Context) error {
	do := func(ctx int) error {
		_, err := s.db.Exec("SELECT 1") // want `\(\*sql.DB\).Exec has no deadline`
		return err
	}
	return do(1)
}

func cleanup(db *sql.DB) error {
	if _, err := db.ExecContext(context.Background(), "DELETE FROM sessions"); err != nil { // want `\(\*sql.DB\).ExecContext gets context.Background\(\)`
		return err
	}
	for i := 0; i < 3; i++ {
		db.ExecContext(context.Background(), "VACUUM") // want `\(\*sql.DB\).ExecContext gets context.Background\(\)`
	}
	return nil
}

func loopback(port int) {
	c1, _ := net.Dial("tcp", "127.0.0.1:8080")                  // loopback: connect cannot hang on a peer
	c2, _ := net.Dial("tcp", fmt.Sprintf("localhost:%d", port)) // loopback
	c3, _ := net.Dial("tcp", net.JoinHostPort("::1", "80"))     // loopback
	c4, _ := net.Dial("tcp", fmt.Sprintf("db:%d", port))        // want `net.Dial has no timeout`
	_, _, _, _ = c1, c2, c3, c4
}

// Two fixes in one function declare different names.
func twoCalls(db *sql.DB) {
	db.ExecContext(context.Background(), "DELETE FROM a") // want `\(\*sql.DB\).ExecContext gets context.Background\(\)`
	db.ExecContext(context.Background(), "DELETE FROM b") // want `\(\*sql.DB\).ExecContext gets context.Background\(\)`
}

// A context with a deadline is in scope: the fix passes it.
func nightly(db *sql.DB) {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Hour)
	defer cancel()
	_ = ctx.Err()
	db.ExecContext(context.Background(), "DELETE FROM c") // want `\(\*sql.DB\).ExecContext gets context.Background\(\)`
}
