// Package tp is vendored third-party code.
package tp

import (
	"context"
	"database/sql"
)

func Run(db *sql.DB) {
	db.ExecContext(context.Background(), "SELECT 1") // finding
}
