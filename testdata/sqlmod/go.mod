module example.com/sqlmod

go 1.26

require github.com/mattn/go-sqlite3 v1.14.0

replace github.com/mattn/go-sqlite3 => ./fakesqlite

replace github.com/lib/pq => ./fakepq
