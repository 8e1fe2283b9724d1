// Package support is imported only by tests.
package support

import "database/sql"

func Open() {
	db, _ := sql.Open("x", "y")
	db.Exec("CREATE TABLE t (x int)") // finding
}
