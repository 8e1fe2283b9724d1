// Package pq stands for a PostgreSQL driver.
package pq
