// Command fanout prints the latency percentiles of a request that fans out
// to N parallel calls and waits for all of them, for N = 1, 5, 10, 20, 50,
// under the seed's per-call latency distribution (20 ms w.p. 0.5, 25 ms
// w.p. 0.49, 50 ms w.p. 0.009, 200 ms w.p. 0.001; see package
// internal/fanout for how the seed's wording is read):
//
//   - exactly, from P(max ≤ x) = F(x)^N;
//
//   - by simulation;
//
//   - by simulation, with the fan-out bounded by a bulkhead of L slots
//     (calls queue FIFO for a free slot; the request ends when the last
//     call does).
//
//     go run ./cmd/fanout [-trials 200000] [-seed 1]
package main

import (
	"flag"
	"fmt"
	"math/rand/v2"
	"time"

	"github.com/resilint/resilint/resil/internal/fanout"
)

func main() {
	trials := flag.Int("trials", 200000, "simulated requests per N")
	seed := flag.Uint64("seed", 1, "random seed")
	flag.Parse()
	rng := rand.New(rand.NewPCG(*seed, *seed^0x9e3779b97f4a7c15))
	ps := []float64{0.5, 0.99, 0.999}
	ns := []int{1, 5, 10, 20, 50}
	ms := func(d time.Duration) string { return fmt.Sprintf("%d", d.Milliseconds()) }

	fmt.Println("per-call latency: 20 ms p=0.5, 25 ms p=0.49, 50 ms p=0.009, 200 ms p=0.001")
	fmt.Printf("fan-out to N calls, wait for all; percentiles in ms; %d simulated requests per row\n\n", *trials)
	fmt.Printf("%4s | %-17s | %-17s | %-17s | %-17s\n", "N", "exact P50/P99/P999", "simulated", "bulkhead L=5", "bulkhead L=10")
	for _, n := range ns {
		exact, marks := "", ""
		for i, p := range ps {
			if i > 0 {
				exact += "/"
			}
			exact += ms(fanout.Seed.Quantile(p, n))
			if fanout.Seed.Margin(p, n, *trials) < 4 {
				marks += fmt.Sprintf(" P%g", p*100)
			}
		}
		row := fmt.Sprintf("%4d | %-17s", n, exact)
		for _, limit := range []int{0, 5, 10} {
			s := fanout.Seed.Simulate(n, limit, *trials, rng)
			cell := ""
			for i, p := range ps {
				if i > 0 {
					cell += "/"
				}
				cell += ms(fanout.Percentile(s, p))
			}
			row += fmt.Sprintf(" | %-17s", cell)
		}
		if marks != "" {
			row += "   (near a step:" + marks + ")"
		}
		fmt.Println(row)
	}
	fmt.Println()
	fmt.Println("A max of draws can only be 20, 25, 50 or 200 ms. \"Near a step\" marks cells where")
	fmt.Println("F(x)^N lies within 4 standard errors of p (for N=1 exactly on it: both neighbouring")
	fmt.Println("values are valid quantiles), so the simulated column may show the neighbour.")
	fmt.Println("The bulkhead columns bound concurrency: calls beyond L wait for a slot, trading the")
	fmt.Println("tail of the max for queueing; the request ends when the last call does.")
}
