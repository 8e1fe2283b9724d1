package app

import (
	"database/sql"
	"testing"
)

func TestPing(t *testing.T) {
	var db *sql.DB
	if false {
		db.Exec("SELECT 1")
	}
}
