package fixes

import (
	"context"
	"database/sql"
	"net/http"
)

var store *sql.DB

// The file uses package context only in this Background() call: the fix
// that replaces it with r.Context() deletes the import.
func serve(w http.ResponseWriter, r *http.Request) {
	store.ExecContext(context.Background(), "HIT") // want `\(\*sql.DB\).ExecContext gets context.Background\(\)`
}

// A second root in the file: both fixes delete the import (the same edit).
func serveToo(w http.ResponseWriter, r *http.Request) {
	store.ExecContext(context.TODO(), "MISS") // want `\(\*sql.DB\).ExecContext gets context.TODO\(\)`
}
