// Package sqlite3 stands for the embedded SQLite driver.
package sqlite3
