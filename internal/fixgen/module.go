package fixgen

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// Module is a module of generated programs: one package per seed.
type Module struct {
	Name   string
	Flavor Flavor
	Seeds  []uint64
}

// PkgName is the package (and directory) name of the i-th program.
func PkgName(i int) string { return fmt.Sprintf("p%04d", i) }

// WriteModules writes the modules under dir, each in dir/<name>, with the
// stand-in modules of stubs (a directory holding sync-new, sync-old, grpc
// and gobreaker) copied to dir/stubs and resil replaced by resilDir.
func WriteModules(dir, stubs, resilDir string, mods []Module) error {
	if err := copyTree(stubs, filepath.Join(dir, "stubs")); err != nil {
		return err
	}
	for _, m := range mods {
		root := filepath.Join(dir, m.Name)
		if err := os.MkdirAll(root, 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(filepath.Join(root, "go.mod"), []byte(goMod(m, resilDir)), 0o644); err != nil {
			return err
		}
		for i, seed := range m.Seeds {
			pkg := PkgName(i)
			pdir := filepath.Join(root, pkg)
			if err := os.MkdirAll(pdir, 0o755); err != nil {
				return err
			}
			for name, src := range Program(seed, pkg, m.Flavor) {
				if err := os.WriteFile(filepath.Join(pdir, name), src, 0o644); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

func goMod(m Module, resilDir string) string {
	sync := "sync-new"
	if m.Flavor.OldSync {
		sync = "sync-old"
	}
	var b strings.Builder
	fmt.Fprintf(&b, "module example.com/%s\n\ngo 1.26.0\n\nrequire (\n", m.Name)
	b.WriteString("\tgithub.com/sony/gobreaker v1.0.0\n")
	b.WriteString("\tgolang.org/x/sync v0.20.0\n")
	b.WriteString("\tgoogle.golang.org/grpc v1.70.0\n")
	if m.Flavor.Resil {
		b.WriteString("\tgithub.com/resilint/resilint/resil v0.0.0\n")
	}
	b.WriteString(")\n\n")
	fmt.Fprintf(&b, "replace github.com/sony/gobreaker => ../stubs/gobreaker\n\n")
	fmt.Fprintf(&b, "replace golang.org/x/sync => ../stubs/%s\n\n", sync)
	fmt.Fprintf(&b, "replace google.golang.org/grpc => ../stubs/grpc\n")
	if m.Flavor.Resil {
		fmt.Fprintf(&b, "\nreplace github.com/resilint/resilint/resil => %s\n", resilDir)
	}
	return b.String()
}

func copyTree(src, dst string) error {
	return filepath.WalkDir(src, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, path)
		target := filepath.Join(dst, rel)
		if d.IsDir() {
			return os.MkdirAll(target, 0o755)
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		return os.WriteFile(target, data, 0o644)
	})
}
