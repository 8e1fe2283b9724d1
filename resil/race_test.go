//go:build race

package resil

// raceEnabled: the race detector adds allocations, so allocation counts are
// only asserted without it.
const raceEnabled = true
