// Package store makes outbound calls on fresh contexts in the shapes where
// a timeout fix would change results: rows, transactions and streams
// handed back, calls deferred until the function returns.
package store

import (
	"context"
	"database/sql"
	"io"
	"time"

	"google.golang.org/grpc"

	"example.com/behavemod/fakedb"
)

// DB is the database every function uses.
var DB = fakedb.Open()

// OpenRows returns rows of a query on a fresh context: they live on it.
func OpenRows() (*sql.Rows, error) {
	return DB.QueryContext(context.Background(), "SELECT n")
}

// Begin returns a transaction: it rolls back when its context is done.
func Begin() (*sql.Tx, error) {
	tx, err := DB.BeginTx(context.Background(), nil)
	if err != nil {
		return nil, err
	}
	return tx, nil
}

// Count reads the rows itself: a timeout fix is safe here.
func Count() (int, error) {
	rows, err := DB.QueryContext(context.Background(), "SELECT n")
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

// Locked holds a lock while it works for d, and releases it when it
// returns: the release must not get a timeout that started at the defer.
func Locked(d time.Duration) {
	defer DB.ExecContext(context.Background(), "UNLOCK")
	time.Sleep(d)
}

// Finish works under the caller's context and releases what it took on
// the way out, on a fresh context: the caller may have cancelled by then.
func Finish(ctx context.Context, d time.Duration) error {
	defer DB.ExecContext(context.Background(), "RELEASE")
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-time.After(d):
		return nil
	}
}

// Conn is the stream connection.
var Conn grpc.ClientConnInterface = &grpc.ClientConn{Messages: 3}

// EventClient is a generated-style streaming client.
type EventClient struct{ cc grpc.ClientConnInterface }

// Watch opens a stream of events.
func (c *EventClient) Watch(ctx context.Context, opts ...grpc.CallOption) (grpc.ClientStream, error) {
	return c.cc.NewStream(ctx, &grpc.StreamDesc{StreamName: "Watch"}, "/events.Events/Watch", opts...)
}

var events = &EventClient{cc: Conn}

// Subscribe returns a stream made on a fresh context: it lives on it.
func Subscribe() (grpc.ClientStream, error) {
	return events.Watch(context.Background())
}

// Drain reads a stream to its end.
func Drain(s grpc.ClientStream) (int, error) {
	n := 0
	for {
		var m struct{}
		if err := s.RecvMsg(&m); err == io.EOF {
			return n, nil
		} else if err != nil {
			return n, err
		}
		n++
	}
}
