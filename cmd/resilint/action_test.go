package main_test

import (
	"bufio"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
)

// action is the part of action.yml the test reads.
type action struct {
	Inputs map[string]struct {
		Default string `yaml:"default"`
	} `yaml:"inputs"`
	Runs struct {
		Using string `yaml:"using"`
		Steps []struct {
			ID   string            `yaml:"id"`
			If   string            `yaml:"if"`
			Uses string            `yaml:"uses"`
			With map[string]string `yaml:"with"`
			Env  map[string]string `yaml:"env"`
			Run  string            `yaml:"run"`
			Dir  string            `yaml:"working-directory"`
		} `yaml:"steps"`
	} `yaml:"runs"`
}

// actionRunner runs the shell steps of the composite action the way the
// Actions runner does: ${{ }} expressions substituted, GITHUB_OUTPUT,
// GITHUB_PATH and GITHUB_STEP_SUMMARY files, bash -e.
type actionRunner struct {
	t         *testing.T
	a         action
	inputs    map[string]string
	workspace string
	env       []string
	outputs   map[string]map[string]string // step id -> outputs
	path      []string
}

var expr = regexp.MustCompile(`\$\{\{\s*([^}]*?)\s*\}\}`)

func (r *actionRunner) eval(s string) string {
	return expr.ReplaceAllStringFunc(s, func(m string) string {
		e := expr.FindStringSubmatch(m)[1]
		switch {
		case strings.HasPrefix(e, "inputs."):
			return r.inputs[strings.TrimPrefix(e, "inputs.")]
		case strings.HasPrefix(e, "steps."):
			parts := strings.Split(e, ".") // steps.ID.outputs.NAME
			return r.outputs[parts[1]][parts[3]]
		case e == "github.action_path":
			return repoRoot(r.t)
		}
		r.t.Fatalf("unknown expression %q in action.yml", e)
		return ""
	})
}

// step runs the shell step with the given id and returns its stdout,
// stderr and exit code.
func (r *actionRunner) step(id string) (string, string, int) {
	t := r.t
	for _, s := range r.a.Runs.Steps {
		if s.ID != id {
			continue
		}
		if s.Run == "" {
			t.Fatalf("step %s has no run script", id)
		}
		tmp := t.TempDir()
		files := map[string]string{}
		for _, name := range []string{"GITHUB_OUTPUT", "GITHUB_PATH", "GITHUB_STEP_SUMMARY"} {
			files[name] = filepath.Join(tmp, name)
			os.WriteFile(files[name], nil, 0o644)
		}
		cmd := exec.Command("bash", "-e", "-c", r.eval(s.Run))
		cmd.Dir = r.workspace
		if s.Dir != "" {
			cmd.Dir = filepath.Join(r.workspace, r.eval(s.Dir))
		}
		cmd.Env = append(os.Environ(), r.env...)
		cmd.Env = append(cmd.Env, "GITHUB_WORKSPACE="+r.workspace, "PATH="+strings.Join(append(r.path, os.Getenv("PATH")), string(os.PathListSeparator)))
		for k, v := range files {
			cmd.Env = append(cmd.Env, k+"="+v)
		}
		for k, v := range s.Env {
			cmd.Env = append(cmd.Env, k+"="+r.eval(v))
		}
		var stdout, stderr strings.Builder
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		err := cmd.Run()
		code := 0
		if ee, ok := err.(*exec.ExitError); ok {
			code = ee.ExitCode()
		} else if err != nil {
			t.Fatal(err)
		}
		outs := map[string]string{}
		data, _ := os.ReadFile(files["GITHUB_OUTPUT"])
		sc := bufio.NewScanner(strings.NewReader(string(data)))
		for sc.Scan() {
			if k, v, ok := strings.Cut(sc.Text(), "="); ok {
				outs[k] = v
			}
		}
		r.outputs[id] = outs
		if p, _ := os.ReadFile(files["GITHUB_PATH"]); len(p) > 0 {
			r.path = append(r.path, strings.Fields(string(p))...)
		}
		if sum, _ := os.ReadFile(files["GITHUB_STEP_SUMMARY"]); len(sum) > 0 {
			outs["summary"] = string(sum)
		}
		return stdout.String(), stderr.String(), code
	}
	t.Fatalf("action.yml has no step with id %s", id)
	return "", "", 0
}

func loadAction(t *testing.T) action {
	data, err := os.ReadFile(filepath.Join(repoRoot(t), "action.yml"))
	if err != nil {
		t.Fatal(err)
	}
	var a action
	dec := yaml.NewDecoder(strings.NewReader(string(data)))
	if err := dec.Decode(&a); err != nil {
		t.Fatalf("action.yml: %v", err)
	}
	return a
}

// TestAction runs the composite action's shell steps on a fixture pull
// request: a commit with legacy findings (the base) and one that adds a
// finding (the head). Only the new finding is annotated and in the SARIF
// log, and the job fails.
func TestAction(t *testing.T) {
	a := loadAction(t)
	if a.Runs.Using != "composite" {
		t.Fatalf("runs.using %q", a.Runs.Using)
	}
	uses := map[string]map[string]string{}
	for _, s := range a.Runs.Steps {
		if s.Uses != "" {
			uses[strings.Split(s.Uses, "@")[0]] = s.With
		}
	}
	if w, ok := uses["github/codeql-action/upload-sarif"]; !ok || w["sarif_file"] != "${{ steps.run.outputs.sarif-file }}" {
		t.Errorf("no upload-sarif step for the run's SARIF file: %v", uses)
	}
	if _, ok := uses["actions/setup-go"]; !ok {
		t.Errorf("no setup-go step")
	}

	dir := copyModule(t, "ecomod")
	git(t, dir, "init", "-q")
	git(t, dir, "add", "-A")
	git(t, dir, "commit", "-q", "-m", "base")
	base := strings.TrimSpace(git(t, dir, "rev-parse", "HEAD"))
	name := filepath.Join(dir, "api", "api.go")
	data, _ := os.ReadFile(name)
	writeFile(t, name, string(data)+"\n// Push is new.\nfunc Push(ctx context.Context) {\n\tctx, cancel := context.WithTimeout(context.TODO(), time.Second)\n\tdefer cancel()\n\t_ = ctx\n}\n")
	git(t, dir, "commit", "-q", "-am", "head")

	gopath := t.TempDir()
	gomodcache, _, _ := run(t, ".", "go", "env", "GOMODCACHE")
	r := &actionRunner{
		t:         t,
		a:         a,
		inputs:    map[string]string{},
		workspace: dir,
		env:       []string{"GOPATH=" + gopath, "GOMODCACHE=" + strings.TrimSpace(gomodcache), "GOFLAGS="},
		outputs:   map[string]map[string]string{},
	}
	for k, v := range a.Inputs {
		r.inputs[k] = v.Default
	}
	if got := r.inputs["new-from-rev"]; got != "${{ github.event.pull_request.base.sha }}" {
		t.Errorf("new-from-rev defaults to %q, want the pull request's base", got)
	}
	r.inputs["new-from-rev"] = base // what the expression gives on a pull_request event

	if _, stderr, code := r.step("install"); code != 0 {
		t.Fatalf("install step: exit %d: %s", code, stderr)
	}
	if _, err := os.Stat(filepath.Join(gopath, "bin", "resilint")); err != nil {
		t.Fatalf("install step did not install resilint: %v", err)
	}

	stdout, stderr, code := r.step("run")
	outs := r.outputs["run"]
	if code != 0 || outs["exit-code"] != "3" || outs["findings"] != "1" {
		t.Fatalf("run step: exit %d, outputs %v\nstdout:\n%s\nstderr:\n%s", code, outs, stdout, stderr)
	}
	ann := regexp.MustCompile(`(?m)^::warning file=api/api.go,line=(\d+),.*title=resilint detachedctx::detachedctx: context.WithTimeout on context.TODO\(\)`)
	if n := strings.Count(stdout, "::warning "); n != 1 || !ann.MatchString(stdout) {
		t.Errorf("want one annotation, for the new finding; stdout:\n%s", stdout)
	}
	if !strings.Contains(stderr, "api.go:") {
		t.Errorf("no text output in the log:\n%s", stderr)
	}
	sarif := outs["sarif-file"]
	if sarif != filepath.Join(dir, "resilint.sarif") {
		t.Errorf("sarif-file output %q", sarif)
	}
	var log sarifLog
	data, err := os.ReadFile(sarif)
	if err != nil || json.Unmarshal(data, &log) != nil || len(log.Runs) != 1 || len(log.Runs[0].Results) != 1 || log.Runs[0].Results[0].RuleID != "detachedctx" {
		t.Errorf("SARIF log: %v\n%s", err, data)
	}
	if !strings.Contains(outs["summary"], "1 finding(s) on lines changed since "+base) {
		t.Errorf("step summary: %q", outs["summary"])
	}

	// The last step fails the job.
	for _, s := range a.Runs.Steps {
		if s.ID == "fail" && s.If != "inputs.fail-on-findings == 'true' && steps.run.outputs.exit-code == '3'" {
			t.Errorf("fail step runs if %q", s.If)
		}
	}
	stdout, _, code = r.step("fail")
	if code != 1 || !strings.Contains(stdout, "::error title=resilint::resilint reported 1 finding(s)") {
		t.Errorf("fail step: exit %d, stdout:\n%s", code, stdout)
	}

	// On a push (no pull request), every finding is reported.
	r.inputs["new-from-rev"] = ""
	stdout, _, _ = r.step("run")
	if outs := r.outputs["run"]; outs["exit-code"] != "3" || outs["findings"] != "3" || strings.Count(stdout, "::warning ") != 3 {
		t.Errorf("without new-from-rev: outputs %v, stdout:\n%s", outs, stdout)
	}

	// Errors fail the run step itself.
	r.inputs["packages"] = "./nosuchpackage"
	stdout, _, code = r.step("run")
	if code != 1 || r.outputs["run"]["exit-code"] != "1" || !strings.Contains(stdout, "::error title=resilint::resilint failed with exit code 1") {
		t.Errorf("bad package: exit %d, outputs %v, stdout:\n%s", code, r.outputs["run"], stdout)
	}
}
