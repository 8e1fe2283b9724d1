package schema

import (
	"context"
	"database/sql"
)

const addColumn = `
	ALTER TABLE feeds ADD COLUMN etag text`

// A schema change (DDL) is a migration step: it runs as long as the table
// needs, and a deadline would abort it halfway. Not reported; the data
// statements of the same migration are.
func migrate(dsn string) error {
	db, err := sql.Open("postgres", dsn)
	if err != nil {
		return err
	}
	tx, err := db.Begin() // want `\(\*sql.DB\).Begin has no deadline`
	if err != nil {
		return err
	}
	if _, err := tx.Exec("CREATE TABLE feeds (id serial primary key)"); err != nil {
		return err
	}
	if _, err := tx.Exec(addColumn); err != nil {
		return err
	}
	if _, err := tx.Exec("create index feeds_etag on feeds(etag)"); err != nil {
		return err
	}
	if _, err := tx.Exec("UPDATE feeds SET etag = ''"); err != nil { // want `\(\*sql.Tx\).Exec has no deadline`
		return err
	}
	if _, err := tx.Exec("DROPPED"); err != nil { // want `\(\*sql.Tx\).Exec has no deadline`
		return err
	}
	return tx.Commit()
}

func schemaOrData(db *sql.DB, q string) {
	db.ExecContext(context.Background(), "DROP TABLE old_feeds")
	db.Exec(q) // want `\(\*sql.DB\).Exec has no deadline`
}
