// Package support is imported only by tests.
package support

import (
	"context"
	"database/sql"
)

func Open() {
	db, _ := sql.Open("x", "y")
	db.ExecContext(context.Background(), "CREATE TABLE t (x int)") // finding
}
