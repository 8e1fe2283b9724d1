package store

import (
	"context"
	"testing"
	"time"

	"example.com/behavemod/fakedb"
)

func TestOpenRows(t *testing.T) {
	rows, err := OpenRows()
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	time.Sleep(10 * time.Millisecond) // database/sql closes rows asynchronously
	n := 0
	for rows.Next() {
		n++
	}
	if err := rows.Err(); err != nil || n != fakedb.Rows {
		t.Fatalf("read %d rows, err %v; want %d rows: the rows were closed with their context", n, err, fakedb.Rows)
	}
}

func TestBegin(t *testing.T) {
	tx, err := Begin()
	if err != nil {
		t.Fatal(err)
	}
	time.Sleep(10 * time.Millisecond) // database/sql rolls back asynchronously
	if _, err := tx.Exec("INSERT"); err != nil {
		t.Fatalf("the transaction is gone: %v", err)
	}
	if err := tx.Commit(); err != nil {
		t.Fatalf("commit: %v", err)
	}
}

func TestCount(t *testing.T) {
	if n, err := Count(); n != fakedb.Rows || err != nil {
		t.Fatalf("Count = %d, %v", n, err)
	}
}

// The deferred release runs after longer than any budget resilint gives
// (the end-to-end test runs -fix with -request-budget 200ms): it must
// still run on a live context.
func TestLocked(t *testing.T) {
	Locked(400 * time.Millisecond)
	checkLast(t, "UNLOCK")
}

// The caller cancels while Finish works: the release still runs.
func TestFinishCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	go func() {
		time.Sleep(20 * time.Millisecond)
		cancel()
	}()
	Finish(ctx, time.Second)
	checkLast(t, "RELEASE")
}

func checkLast(t *testing.T, query string) {
	t.Helper()
	log := fakedb.Log()
	for i := len(log) - 1; i >= 0; i-- {
		if log[i].Query == query {
			if log[i].Err != nil {
				t.Fatalf("%s ran on a done context: %v", query, log[i].Err)
			}
			return
		}
	}
	t.Fatalf("%s did not run", query)
}

func TestSubscribe(t *testing.T) {
	s, err := Subscribe()
	if err != nil {
		t.Fatal(err)
	}
	if n, err := Drain(s); n != 3 || err != nil {
		t.Fatalf("read %d messages, err %v; want 3: the stream ended with its context", n, err)
	}
}
