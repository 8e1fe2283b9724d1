package driver

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/resilint/resilint/config"
)

// loadConfigFile reads the configuration file at path, or the .resilint.yml
// of the module that contains dir, into cfg. Without an explicit path it
// walks up from dir to the first directory with a go.mod (the module root)
// and reads the .resilint.yml there, if any; there is none outside a module.
// An explicit path that does not exist is an error.
func loadConfigFile(cfg *config.Config, path, dir string) error {
	if path == "" {
		var err error
		path, err = findConfigFile(dir)
		if err != nil || path == "" {
			return err
		}
	}
	info, err := os.Stat(path)
	if err != nil {
		return fmt.Errorf("configuration file: %v", err)
	}
	if info.IsDir() {
		return fmt.Errorf("configuration file %s is a directory", path)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return fmt.Errorf("configuration file: %v", err)
	}
	return cfg.DecodeYAML(data, relPath(path))
}

// findConfigFile returns the .resilint.yml at the root of the module that
// contains dir, or "" when there is none.
func findConfigFile(dir string) (string, error) {
	dir, err := filepath.Abs(dir)
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			name := filepath.Join(dir, config.FileName)
			if _, err := os.Lstat(name); err == nil {
				return name, nil
			}
			return "", nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", nil
		}
		dir = parent
	}
}
