module github.com/resilint/resilint/resil/bench

go 1.26.0

replace github.com/resilint/resilint/resil => ../

tool golang.org/x/perf/cmd/benchstat

require (
	github.com/failsafe-go/failsafe-go v0.9.8
	github.com/resilint/resilint/resil v0.0.0-00010101000000-000000000000
	github.com/sony/gobreaker/v2 v2.4.0
)

require (
	github.com/aclements/go-moremath v0.0.0-20210112150236-f10218a38794 // indirect
	github.com/bits-and-blooms/bitset v1.24.4 // indirect
	golang.org/x/perf v0.0.0-20260908200009-22c9c6c9d4da // indirect
)
