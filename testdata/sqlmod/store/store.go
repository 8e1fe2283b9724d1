// Package store queries a database handle opened elsewhere. Whether the
// query is outbound depends on the drivers the module's go.mod requires:
// SQLite's only (embedded, silent), or also a database server's (reported).
package store

import "database/sql"

// Count counts the rows of a table.
func Count(db *sql.DB) (n int, err error) {
	err = db.QueryRow("SELECT count(*) FROM items").Scan(&n)
	return n, err
}
