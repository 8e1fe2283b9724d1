module example.com/app

go 1.16

require (
	github.com/mattn/go-sqlite3 v1.14.0
)

replace github.com/mattn/go-sqlite3 => ./fakesqlite
