package client

import (
	"database/sql"
	"testing"
)

func TestCount(t *testing.T) {
	var db *sql.DB
	if db != nil {
		db.Exec("SELECT 1") //nolint:resilint // not reported anyway: a test file
	}
}
