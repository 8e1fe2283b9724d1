package imports

import (
	"context"
	"database/sql"

	"example.com/fixfiles/util"
)

func Cleanup(db *sql.DB) error {
	_, err := db.ExecContext(context.Background(), "DELETE FROM sessions WHERE job = ?", util.Name)
	return err
}
