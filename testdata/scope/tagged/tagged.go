//go:build special

// Package tagged builds only with the special tag.
package tagged

import "database/sql"

func Run(db *sql.DB) {
	db.Exec("SELECT 1") // finding
}
