//go:build special

// Package tagged builds only with the special tag.
package tagged

import (
	"context"
	"database/sql"
)

func Run(db *sql.DB) {
	db.ExecContext(context.Background(), "SELECT 1") // finding
}
