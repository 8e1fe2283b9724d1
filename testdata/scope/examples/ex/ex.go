// Package ex is an example program's code.
package ex

import (
	"context"
	"database/sql"
)

func Run(db *sql.DB) {
	db.ExecContext(context.Background(), "SELECT 1") // finding
}
