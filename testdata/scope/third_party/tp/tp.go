// Package tp is vendored third-party code.
package tp

import "database/sql"

func Run(db *sql.DB) {
	db.Exec("SELECT 1") // finding
}
