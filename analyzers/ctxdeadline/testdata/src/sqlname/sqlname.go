// Package sqlname opens databases by driver name in a package that does not
// link the driver: the program's main imports it. The names the embedded
// engines' drivers register are local (issue 13, rule 1); any other name is
// a database of unknown place, reported as before.
package sqlname

import "database/sql"

func vacuum(path string) error {
	db, err := sql.Open("sqlite3", path)
	if err != nil {
		return err
	}
	_, err = db.Exec("VACUUM")
	return err
}

func count(path string) (int, error) {
	db, err := sql.Open("sqlite", path)
	if err != nil {
		return 0, err
	}
	var n int
	err = db.QueryRow("SELECT count(*) FROM jobs").Scan(&n)
	return n, err
}

func analytics(path string) error {
	db, err := sql.Open("duckdb", path)
	if err != nil {
		return err
	}
	_, err = db.Exec("CHECKPOINT")
	return err
}

func orders(dsn string) error {
	db, err := sql.Open("postgres", dsn)
	if err != nil {
		return err
	}
	_, err = db.Exec("DELETE FROM orders WHERE done") // want `\(\*sql.DB\).Exec has no deadline`
	return err
}
