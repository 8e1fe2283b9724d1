//go:build !nosuchtag

// Package crlf is written with CRLF line endings by the test.
package crlf

import (
	"context"
	"database/sql"
	"time"
)

var  unformatted   = 1 // gofmt would change this line; -fix must not

/* A block comment
   that stays. */

func Lookup(ctx context.Context, db *sql.DB) error {
	tctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	_, err := db.ExecContext(tctx, "SELECT 1")
	return err
}

func after() {}
