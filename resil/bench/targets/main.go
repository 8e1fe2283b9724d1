// Command targets reads `go test -bench` output (several -count runs) and
// checks resil's performance targets against medians from that same run:
//
//   - breaker closed path ≤ 25 ns/op and 0 allocs/op, ≥ 5× faster than
//     sony/gobreaker v2 (serial and parallel, each -cpu value);
//   - bulkhead ≤ 1.2× a bare channel semaphore;
//   - retry success path: 0 allocs beyond the closure — 0 on Background, with
//     options, nested, on a request's context and on a context not marked
//     before; 1 (the closure) for a call site passing a closure on a
//     request's context. Also checked, with what it may cost: a caller with a
//     deadline (4, the attempt's own earlier deadline).
//
// It exits 1 if a target is missed.
package main

import (
	"bufio"
	"fmt"
	"os"
	"regexp"
	"slices"
	"strconv"
	"strings"
)

// line matches "BenchmarkX/a=b/c=d-2   123   45.6 ns/op   0 B/op   0 allocs/op".
var line = regexp.MustCompile(`^(Benchmark\S+?)(-\d+)?\s+\d+\s+([\d.]+) ns/op(?:\s+([\d.]+) B/op\s+([\d.]+) allocs/op)?`)

type samples struct{ ns, allocs []float64 }

func median(xs []float64) float64 {
	if len(xs) == 0 {
		return -1
	}
	s := slices.Clone(xs)
	slices.Sort(s)
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

func main() {
	data := map[string]*samples{} // name with its -cpu suffix
	var cpus []string
	sc := bufio.NewScanner(os.Stdin)
	for sc.Scan() {
		m := line.FindStringSubmatch(sc.Text())
		if m == nil {
			continue
		}
		cpu := strings.TrimPrefix(m[2], "-")
		if cpu == "" {
			cpu = "1"
		}
		if !slices.Contains(cpus, cpu) {
			cpus = append(cpus, cpu)
		}
		key := m[1] + "@" + cpu
		if data[key] == nil {
			data[key] = &samples{}
		}
		ns, _ := strconv.ParseFloat(m[3], 64)
		data[key].ns = append(data[key].ns, ns)
		if m[5] != "" {
			a, _ := strconv.ParseFloat(m[5], 64)
			data[key].allocs = append(data[key].allocs, a)
		}
	}
	get := func(name, cpu string) (ns, allocs float64) {
		s := data[name+"@"+cpu]
		if s == nil {
			return -1, -1
		}
		return median(s.ns), median(s.allocs)
	}

	failed := false
	check := func(ok bool, format string, args ...any) {
		mark := "ok  "
		if !ok {
			mark, failed = "MISS", true
		}
		fmt.Printf("%s "+format+"\n", append([]any{mark}, args...)...)
	}
	fmt.Println("targets (medians of this run):")
	for _, cpu := range cpus {
		for _, mode := range []string{"serial", "parallel"} {
			r, ra := get("BenchmarkBreaker/mode="+mode+"/impl=resil", cpu)
			g, _ := get("BenchmarkBreaker/mode="+mode+"/impl=gobreaker", cpu)
			f, _ := get("BenchmarkBreaker/mode="+mode+"/impl=failsafe", cpu)
			if r < 0 || g < 0 {
				continue
			}
			check(r <= 25 && ra == 0, "breaker %-8s cpu=%s: resil %.1f ns/op, %.0f allocs/op (target ≤ 25 ns, 0 allocs)", mode, cpu, r, ra)
			check(g/r >= 5, "breaker %-8s cpu=%s: gobreaker v2 %.1f ns/op = %.1f× resil (target ≥ 5×); failsafe-go %.0f ns/op = %.0f×", mode, cpu, g, g/r, f, f/r)
		}
		for _, mode := range []string{"serial", "parallel"} {
			r, _ := get("BenchmarkBulkhead/mode="+mode+"/impl=resil", cpu)
			c, _ := get("BenchmarkBulkhead/mode="+mode+"/impl=chan", cpu)
			if r < 0 || c < 0 {
				continue
			}
			check(r <= 1.2*c, "bulkhead %-8s cpu=%s: resil %.1f ns/op vs channel semaphore %.1f ns/op = %.2f× (target ≤ 1.2×)", mode, cpu, r, c, r/c)
		}
		for _, c := range []string{"outermost", "outermost-with-options", "outermost-request-ctx", "nested", "call-site", "outermost-new-parent", "outermost-deadline"} {
			ns, a := get("BenchmarkRetrySuccess/case="+c, cpu)
			if ns < 0 {
				continue
			}
			want, why := 0.0, "none"
			switch c {
			case "call-site":
				want, why = 1, "the caller's closure"
			case "outermost-deadline":
				// Budget planning: the attempt's earlier deadline is a
				// context.WithDeadline of its own (node, timer, cancel).
				want, why = 4, "the attempt's own deadline, time left − reserve"
			}
			check(a <= want, "retry success %-22s cpu=%s: %.0f ns/op, %.0f allocs/op (allowed %.0f: %s)", c, cpu, ns, a, want, why)
		}
	}
	if failed {
		os.Exit(1)
	}
}
