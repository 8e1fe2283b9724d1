// Package golangci is resilint's golangci-lint v2 module plugin. A custom
// golangci-lint binary that imports it (see .custom-gcl.yml at the root of
// the repository) has a linter named resilint, configured under
// linters.settings.custom.resilint.settings with the same keys as
// .resilint.yml (see docs/integrations.md and .golangci.example.yml).
package golangci

import (
	"fmt"
	"strings"

	"github.com/golangci/plugin-module-register/register"
	"golang.org/x/tools/go/analysis"

	"github.com/resilint/resilint/config"
	"github.com/resilint/resilint/suite"
)

// Name is the linter's name in golangci-lint: the name to enable, to use in
// //nolint:resilint and in exclusion rules.
const Name = "resilint"

func init() {
	register.Plugin(Name, New)
}

// New builds the plugin from golangci-lint's settings for resilint (the
// value of linters.settings.custom.resilint.settings). Unknown keys and
// invalid values are errors, which golangci-lint reports before it runs.
func New(settings any) (register.LinterPlugin, error) {
	cfg, err := Config(settings)
	if err != nil {
		return nil, err
	}
	return &plugin{cfg: cfg}, nil
}

// Config decodes golangci-lint settings into resilint's configuration and
// checks it.
func Config(settings any) (*config.Config, error) {
	cfg, err := register.DecodeSettings[*config.Config](settings)
	if err != nil {
		if e := config.UnknownSetting(settings); e != nil {
			return nil, fmt.Errorf("resilint settings: %v", e)
		}
		return nil, fmt.Errorf("resilint settings: %v", strings.TrimPrefix(err.Error(), "decoding settings: "))
	}
	if cfg == nil {
		cfg = config.Default()
	} else {
		cfg.SetDefaults()
	}
	if err := cfg.Check(); err != nil {
		return nil, fmt.Errorf("resilint settings: %v", err)
	}
	if _, err := suite.Analyzers(cfg); err != nil {
		return nil, fmt.Errorf("resilint settings: %v", err)
	}
	return cfg, nil
}

type plugin struct {
	cfg *config.Config
}

var _ register.LinterPlugin = (*plugin)(nil)

// BuildAnalyzers returns the analyzers the settings enable, built for them.
func (p *plugin) BuildAnalyzers() ([]*analysis.Analyzer, error) {
	as, err := suite.Analyzers(p.cfg)
	if err != nil {
		return nil, err
	}
	if err := p.cfg.Err(); err != nil {
		return nil, fmt.Errorf("resilint settings: %v", err)
	}
	return as, nil
}

// GetLoadMode asks for type information: every analyzer needs it.
func (p *plugin) GetLoadMode() string { return register.LoadModeTypesInfo }
