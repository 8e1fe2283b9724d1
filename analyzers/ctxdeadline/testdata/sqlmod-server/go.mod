module example.com/app

go 1.26

require (
	github.com/mattn/go-sqlite3 v1.14.0
	github.com/lib/pq v1.10.0 // indirect
)

replace github.com/mattn/go-sqlite3 => ./fakesqlite
replace github.com/lib/pq => ./fakepq
