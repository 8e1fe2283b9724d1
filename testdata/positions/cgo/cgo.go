// Package cgo uses cgo: it is analysed and fixed in this file, not in the one cmd/cgo writes.
package cgo

// #include <stdlib.h>
// static int twice(int x) { return 2 * x; }
import "C"

import (
	"context"
	"database/sql"
	"time"
)

// Twice calls C.
func Twice(x int) int { return int(C.twice(C.int(x))) }

func Lookup(ctx context.Context, db *sql.DB) error {
	tctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	_, err := db.ExecContext(tctx, "SELECT 1", int(C.twice(1)))
	return err
}
