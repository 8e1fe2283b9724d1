// Package mocks is production code whatever its name: app imports it.
package mocks

import "database/sql"

var db *sql.DB

func Use() {
	db.Exec("SELECT 1") // finding
}
