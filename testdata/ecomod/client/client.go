// Package client talks to other services.
package client

import (
	"database/sql"

	"example.com/ecomod/wrap"
)

// Count counts the orders.
func Count(db *sql.DB) error {
	_, err := db.Exec("UPDATE stats SET n = (SELECT count(*) FROM orders)")
	return err
}

// Notify tells the billing service; wrap.Call is outbound only when the
// configuration says so.
func Notify() error {
	return wrap.Call("billing")
}

// Legacy is excused as a whole.
//
//nolint:resilint // legacy report, removed with the v2 schema
func Legacy(db *sql.DB) {
	rows, err := db.Query("SELECT 1")
	if err == nil {
		rows.Close()
	}
}

// Fire is excused on its line.
func Fire(db *sql.DB) {
	_, _ = db.Exec("DELETE FROM sessions WHERE expired") //nolint:ctxdeadline // the database has a statement timeout
}

// Stale has a directive that suppresses nothing.
func Stale() int {
	return 1 //nolint:ctxdeadline // left over from an old db.Exec
}
