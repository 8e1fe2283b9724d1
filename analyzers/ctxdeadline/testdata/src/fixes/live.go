package fixes

import (
	"bufio"
	"context"
	"database/sql"
	"io"
	nethttp "net/http"
)

// A timeout fix cancels its context when the function returns: never for a
// call whose rows, transaction or response the function returns or keeps.

func openRows(db *sql.DB) (*sql.Rows, error) {
	return db.QueryContext(context.Background(), "SELECT 1") // want `\(\*sql.DB\).QueryContext gets context.Background\(\)`
}

func beginTx(db *sql.DB) (*sql.Tx, error) {
	tx, err := db.BeginTx(context.Background(), nil) // want `\(\*sql.DB\).BeginTx gets context.Background\(\)`
	if err != nil {
		return nil, err
	}
	return tx, nil
}

// A connection returned to the caller lives on the context it was taken
// with: cancelling that at return would close it under the caller.
func takeConn(db *sql.DB) (*sql.Conn, error) {
	return db.Conn(context.Background()) // want `\(\*sql.DB\).Conn gets context.Background\(\)`
}

type session struct{ tx *sql.Tx }

func (s *session) start(db *sql.DB) error {
	tx, err := db.BeginTx(context.TODO(), nil) // want `\(\*sql.DB\).BeginTx gets context.TODO\(\)`
	s.tx = tx
	return err
}

// Rows read and closed in the function: the fix applies.
func countRows(db *sql.DB) (int, error) {
	rows, err := db.QueryContext(context.Background(), "SELECT 1") // want `\(\*sql.DB\).QueryContext gets context.Background\(\)`
	if err != nil {
		return 0, err
	}
	defer rows.Close()
	n := 0
	for rows.Next() {
		n++
	}
	return n, rows.Err()
}

func scanOne(db *sql.DB) (int, error) {
	var n int
	err := db.QueryRowContext(context.Background(), "SELECT 1").Scan(&n) // want `\(\*sql.DB\).QueryRowContext gets context.Background\(\)`
	return n, err
}

var hc = &nethttp.Client{}

// get forwards its context to a request: a response with an unread body
// lives on it.
func get(ctx context.Context, url string) (*nethttp.Response, error) {
	req, err := nethttp.NewRequestWithContext(ctx, nethttp.MethodGet, url, nil)
	if err != nil {
		return nil, err
	}
	return hc.Do(req)
}

func fetchBody(url string) (*nethttp.Response, error) {
	return get(context.Background(), url) // want `get gets context.Background\(\)`
}

// The body is read before the function returns: the fix applies.
func readBody(url string) ([]byte, error) {
	resp, err := get(context.Background(), url) // want `get gets context.Background\(\)`
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	return io.ReadAll(resp.Body)
}

// The body is handed to a function of this package, which may keep it.
func handBody(url string) error {
	resp, err := get(context.Background(), url) // want `get gets context.Background\(\)`
	if err != nil {
		return err
	}
	keep(resp.Body)
	return nil
}

var kept io.ReadCloser

func keep(r io.ReadCloser) { kept = r }

// The body is copied by a goroutine that may run after the function
// returns: a timeout cancelled at return would cut the copy.
func streamBody(url string, w io.Writer) error {
	resp, err := get(context.Background(), url) // want `get gets context.Background\(\)`
	if err != nil {
		return err
	}
	go io.Copy(w, resp.Body)
	return nil
}

// A holder of the body read by a goroutine.
func streamHolder(url string, w io.Writer) error {
	resp, err := get(context.Background(), url) // want `get gets context.Background\(\)`
	if err != nil {
		return err
	}
	r := io.LimitReader(resp.Body, 1<<20)
	go io.Copy(w, r)
	return nil
}

// A method of a holder started by go.
func streamMethod(url string, w io.Writer) error {
	resp, err := get(context.Background(), url) // want `get gets context.Background\(\)`
	if err != nil {
		return err
	}
	br := bufio.NewReader(resp.Body)
	go br.WriteTo(w)
	return nil
}

// Rows read by a function literal deferred before the query: it runs after
// a cancel deferred at the query, so the fix would end the rows under it.
func countInDefer(db *sql.DB) (n int, err error) {
	var rows *sql.Rows
	defer func() {
		if rows != nil {
			for rows.Next() {
				n++
			}
			rows.Close()
		}
	}()
	rows, err = db.QueryContext(context.Background(), "SELECT 1") // want `\(\*sql.DB\).QueryContext gets context.Background\(\)`
	return 0, err
}

// Deferred after the query, the literal runs before the cancel: the fix
// applies.
func countInLaterDefer(db *sql.DB) (n int, err error) {
	rows, err := db.QueryContext(context.Background(), "SELECT 1") // want `\(\*sql.DB\).QueryContext gets context.Background\(\)`
	if err != nil {
		return 0, err
	}
	defer func() {
		for rows.Next() {
			n++
		}
		rows.Close()
	}()
	return 0, nil
}
