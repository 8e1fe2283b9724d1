module example.com/fixmod

go 1.26.0

require (
	github.com/resilint/resilint/resil v0.0.0
	github.com/sony/gobreaker v1.0.0
	golang.org/x/sync v0.23.0
)
