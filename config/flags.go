package config

import (
	"flag"
	"fmt"
	"strconv"
	"strings"
	"time"
)

// RegisterFlags defines the configuration's command-line flags on fs, bound
// to c. The command and the go vet mode share them.
func (c *Config) RegisterFlags(fs *flag.FlagSet) {
	fs.BoolVar(&c.Tests, "include-tests", c.Tests, "also report findings in test code: _test.go files, files importing testing or a test framework (ginkgo, gomega, testify), functions taking a *testing.T, B, F or testing.TB, packages only tests import (test packages are always analyzed)")
	fs.BoolVar(&c.Generated, "include-generated", c.Generated, "also report findings in generated files")
	fs.Var(listFlag{&c.ExcludeDirs}, "exclude-dirs", "comma-separated directory names whose packages are not reported, at any depth below the module root (\"\" for none)")
	fs.Var(budgetFlag{c}, "request-budget", "longest constant timeout detachedctx accepts on a request path; setting it applies the check to every function that has a caller's context")
	fs.Var(intFlag{&c.FanoutLimit, 1}, "fanout-limit", "largest constant loop trip count unboundedfanout treats as small")
	fs.Var(intFlag{&c.FanoutFixLimit, 1}, "fanout-fix-limit", "concurrency limit the unboundedfanout fixes insert")
	fs.Var(intFlag{&c.MaxHalfOpen, 1}, "max-half-open", "largest number of half-open probes globalbreaker accepts")
}

type budgetFlag struct{ c *Config }

func (f budgetFlag) String() string {
	if f.c == nil {
		return ""
	}
	return f.c.RequestBudget.String()
}

func (f budgetFlag) Set(s string) error {
	d, err := time.ParseDuration(s)
	if err != nil || d <= 0 {
		return fmt.Errorf("want a positive duration such as 10s")
	}
	f.c.RequestBudget = Duration(d)
	f.c.BudgetEverywhere = true
	return nil
}

type intFlag struct {
	p   *int
	min int
}

func (f intFlag) String() string {
	if f.p == nil {
		return ""
	}
	return strconv.Itoa(*f.p)
}

func (f intFlag) Set(s string) error {
	v, err := strconv.Atoi(s)
	if err != nil || v < f.min {
		return fmt.Errorf("want an integer of at least %d", f.min)
	}
	*f.p = v
	return nil
}

// listFlag is a comma-separated list; "" is the empty list.
type listFlag struct{ p *[]string }

func (f listFlag) String() string {
	if f.p == nil {
		return ""
	}
	return strings.Join(*f.p, ",")
}

func (f listFlag) Set(s string) error {
	list := []string{}
	for _, e := range strings.Split(s, ",") {
		if e = strings.TrimSpace(e); e != "" {
			if strings.Contains(e, "/") {
				return fmt.Errorf("want directory names, not paths (%q)", e)
			}
			list = append(list, e)
		}
	}
	*f.p = list
	return nil
}
