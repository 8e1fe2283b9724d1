// Package ex is an example program's code.
package ex

import "database/sql"

func Run(db *sql.DB) {
	db.Exec("SELECT 1") // finding
}
