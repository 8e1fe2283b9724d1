//go:build !race

package resil

const raceEnabled = false
