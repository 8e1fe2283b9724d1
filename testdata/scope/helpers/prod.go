// Package helpers holds production code and a test helper.
package helpers

import "database/sql"

func Count(db *sql.DB) error {
	_, err := db.Exec("SELECT count(*) FROM t") // finding
	return err
}
