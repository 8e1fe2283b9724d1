// Package fakedb is a database/sql driver in memory: queries return Rows
// rows, and every statement is logged with whether its context was done
// when it ran. database/sql closes rows and rolls transactions back when
// their context is done, as with a real driver.
package fakedb

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"io"
	"sync"
)

// Rows is how many rows a query returns.
const Rows = 5

// Entry is one statement that ran.
type Entry struct {
	Query string
	Err   error // the context's error when it ran
}

var (
	mu  sync.Mutex
	log []Entry
)

// Log returns the statements run so far.
func Log() []Entry {
	mu.Lock()
	defer mu.Unlock()
	return append([]Entry(nil), log...)
}

func record(ctx context.Context, q string) error {
	mu.Lock()
	defer mu.Unlock()
	log = append(log, Entry{Query: q, Err: ctx.Err()})
	return ctx.Err()
}

// Open returns a database on the driver.
func Open() *sql.DB { return sql.OpenDB(connector{}) }

type connector struct{}

func (connector) Connect(context.Context) (driver.Conn, error) { return &conn{}, nil }
func (connector) Driver() driver.Driver                        { return drv{} }

type drv struct{}

func (drv) Open(string) (driver.Conn, error) { return &conn{}, nil }

type conn struct{}

func (c *conn) Prepare(q string) (driver.Stmt, error) { return nil, errors.New("fakedb: no Prepare") }
func (c *conn) Close() error                          { return nil }
func (c *conn) Begin() (driver.Tx, error)             { return tx{}, nil }

func (c *conn) BeginTx(ctx context.Context, opts driver.TxOptions) (driver.Tx, error) {
	if err := record(ctx, "BEGIN"); err != nil {
		return nil, err
	}
	return tx{}, nil
}

func (c *conn) ExecContext(ctx context.Context, q string, args []driver.NamedValue) (driver.Result, error) {
	if err := record(ctx, q); err != nil {
		return nil, err
	}
	return driver.RowsAffected(1), nil
}

func (c *conn) QueryContext(ctx context.Context, q string, args []driver.NamedValue) (driver.Rows, error) {
	if err := record(ctx, q); err != nil {
		return nil, err
	}
	return &rows{left: Rows}, nil
}

type tx struct{}

func (tx) Commit() error   { return nil }
func (tx) Rollback() error { return nil }

type rows struct{ left int }

func (r *rows) Columns() []string { return []string{"n"} }
func (r *rows) Close() error      { return nil }
func (r *rows) Next(dest []driver.Value) error {
	if r.left == 0 {
		return io.EOF
	}
	dest[0] = int64(r.left)
	r.left--
	return nil
}
