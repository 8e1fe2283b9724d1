// Package support is imported only by tests.
package support

import (
	"context"
	"database/sql"
)

func Open() {
	db, _ := sql.Open("x", "y")
	db.ExecContext(context.Background(), "INSERT INTO t VALUES (1)") // finding
}
