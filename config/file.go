package config

import (
	"bytes"
	"encoding"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"reflect"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"
)

// FileName is the name of the configuration file the command looks for at
// the root of the module it analyzes.
const FileName = ".resilint.yml"

// DecodeYAML decodes a configuration file (the .resilint.yml schema: the
// yaml keys of [Config] and of the rule types) into c, on top of the values c
// already holds. name is the file's name, used in error messages. Keys that
// are not part of the schema are errors that name the key, its line and the
// keys allowed there. A file that sets request-budget applies the budget to
// every function that has a caller's context, as the -request-budget flag
// does. The result is checked with [Config.Check].
func (c *Config) DecodeYAML(data []byte, name string) error {
	var root yaml.Node
	dec := yaml.NewDecoder(bytes.NewReader(data))
	if err := dec.Decode(&root); err != nil {
		if errors.Is(err, io.EOF) {
			return nil // an empty file
		}
		return fileError(name, err)
	}
	var extra yaml.Node
	if err := dec.Decode(&extra); !errors.Is(err, io.EOF) {
		return fmt.Errorf("%s: more than one YAML document; a configuration file holds one", name)
	}
	doc := &root
	if doc.Kind == yaml.DocumentNode && len(doc.Content) == 1 {
		doc = doc.Content[0]
	}
	if doc.Kind == yaml.ScalarNode && doc.Tag == "!!null" {
		return nil // only comments
	}
	if doc.Kind != yaml.MappingNode {
		return fmt.Errorf("%s:%d: the configuration must be a mapping of keys such as enable, disable, request-budget (got %s)", name, doc.Line, nodeKind(doc))
	}
	if err := checkKeys(doc, reflect.TypeFor[Config](), "", true); err != nil {
		return fmt.Errorf("%s:%v", name, err)
	}
	// The keys are known; decode strictly all the same, for the types.
	dec = yaml.NewDecoder(bytes.NewReader(data))
	dec.KnownFields(true)
	if err := dec.Decode(c); err != nil {
		return fileError(name, err)
	}
	for i := 0; i+1 < len(doc.Content); i += 2 {
		if doc.Content[i].Value == "request-budget" {
			c.BudgetEverywhere = true
		}
	}
	if err := c.Check(); err != nil {
		return fmt.Errorf("%s: %v", name, err)
	}
	return nil
}

// SetDefaults gives every unset (zero) setting its default, for a Config
// decoded from scratch (golangci-lint settings). A request budget that was
// set applies to every function that has a caller's context, as the
// -request-budget flag does.
func (c *Config) SetDefaults() {
	if c.RequestBudget == 0 {
		c.RequestBudget = Duration(DefaultRequestBudget)
	} else {
		c.BudgetEverywhere = true
	}
	if c.FanoutLimit == 0 {
		c.FanoutLimit = DefaultFanoutLimit
	}
	if c.FanoutFixLimit == 0 {
		c.FanoutFixLimit = DefaultFanoutLimit
	}
	if c.MaxHalfOpen == 0 {
		c.MaxHalfOpen = DefaultMaxHalfOpen
	}
}

// Check reports invalid settings: limits below 1, a negative budget, and
// rules that cannot become rows of the knowledge table. It does not build c's
// table (a later flag may still change c).
func (c *Config) Check() error {
	var errs []error
	if c.RequestBudget < 0 {
		errs = append(errs, fmt.Errorf("request-budget must be positive, got %s", c.RequestBudget))
	}
	for _, n := range []struct {
		key string
		v   int
	}{{"fanout-limit", c.FanoutLimit}, {"fanout-fix-limit", c.FanoutFixLimit}, {"max-half-open", c.MaxHalfOpen}} {
		if n.v < 1 {
			errs = append(errs, fmt.Errorf("%s must be at least 1, got %d", n.key, n.v))
		}
	}
	rules := &Config{Outbound: c.Outbound, RetryHelpers: c.RetryHelpers, Breakers: c.Breakers, Bounds: c.Bounds}
	if err := rules.Err(); err != nil {
		errs = append(errs, err)
	}
	return errors.Join(errs...)
}

// UnknownSetting returns an error naming the first key of settings (a
// decoded JSON or YAML value, such as golangci-lint's settings for resilint)
// that is not part of the configuration schema, with the keys allowed there;
// nil if every key is known.
func UnknownSetting(settings any) error {
	data, err := json.Marshal(settings)
	if err != nil {
		return nil
	}
	var n yaml.Node
	if err := yaml.Unmarshal(data, &n); err != nil || len(n.Content) != 1 {
		return nil
	}
	return checkKeys(n.Content[0], reflect.TypeFor[Config](), "", false)
}

// FileKeys returns the top-level keys of the configuration schema, sorted.
func FileKeys() []string {
	keys := fieldKeys(reflect.TypeFor[Config]())
	out := make([]string, 0, len(keys))
	for k := range keys {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// fieldKeys maps the yaml keys of a struct type to their field types.
func fieldKeys(t reflect.Type) map[string]reflect.Type {
	keys := map[string]reflect.Type{}
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		if !f.IsExported() {
			continue
		}
		tag := f.Tag.Get("yaml")
		name, _, _ := strings.Cut(tag, ",")
		if name == "-" {
			continue
		}
		if name == "" {
			name = strings.ToLower(f.Name)
		}
		keys[name] = f.Type
	}
	return keys
}

// checkKeys reports the first key of a mapping node (and of the mappings
// nested in it) that is not a field of t.
func checkKeys(n *yaml.Node, t reflect.Type, path string, lines bool) error {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch {
	case t.Kind() == reflect.Struct && n.Kind == yaml.MappingNode:
		keys := fieldKeys(t)
		for i := 0; i+1 < len(n.Content); i += 2 {
			k, v := n.Content[i], n.Content[i+1]
			ft, ok := keys[k.Value]
			if !ok {
				known := make([]string, 0, len(keys))
				for key := range keys {
					known = append(known, key)
				}
				sort.Strings(known)
				where := "at the top level"
				if path != "" {
					where = "in " + path
				}
				msg := fmt.Sprintf("unknown key %q %s (known keys: %s)", k.Value, where, strings.Join(known, ", "))
				if lines {
					return fmt.Errorf("%d: %s", k.Line, msg)
				}
				return errors.New(msg)
			}
			if err := checkKeys(v, ft, join(path, k.Value), lines); err != nil {
				return err
			}
		}
	case n.Kind == yaml.ScalarNode && reflect.PointerTo(t).Implements(textUnmarshaler):
		// Check values such as durations here, where the line is known:
		// yaml reports a TextUnmarshaler's error without it.
		v := reflect.New(t).Interface().(encoding.TextUnmarshaler)
		if err := v.UnmarshalText([]byte(n.Value)); err != nil {
			if lines {
				return fmt.Errorf("%d: %s: %v", n.Line, path, err)
			}
			return fmt.Errorf("%s: %v", path, err)
		}
	case t.Kind() == reflect.Slice && n.Kind == yaml.SequenceNode:
		for i, e := range n.Content {
			if err := checkKeys(e, t.Elem(), path+"["+strconv.Itoa(i)+"]", lines); err != nil {
				return err
			}
		}
	}
	return nil
}

func join(path, key string) string {
	if path == "" {
		return key
	}
	return path + "." + key
}

func nodeKind(n *yaml.Node) string {
	switch n.Kind {
	case yaml.SequenceNode:
		return "a list"
	case yaml.ScalarNode:
		return fmt.Sprintf("the value %q", n.Value)
	case yaml.AliasNode:
		return "an alias"
	}
	return "something else"
}

var textUnmarshaler = reflect.TypeFor[encoding.TextUnmarshaler]()

var yamlLine = regexp.MustCompile(`^(?:yaml: )?line (\d+): `)

// fileError turns a yaml error into "NAME:LINE: message", without the
// library's "yaml: unmarshal errors:" preamble; several errors are joined
// with "; ".
func fileError(name string, err error) error {
	msgs := []string{err.Error()}
	var te *yaml.TypeError
	if errors.As(err, &te) {
		msgs = te.Errors
	}
	var out []string
	for _, m := range msgs {
		if sub := yamlLine.FindStringSubmatch(m); sub != nil {
			out = append(out, name+":"+sub[1]+": "+m[len(sub[0]):])
		} else {
			out = append(out, name+": "+strings.TrimPrefix(m, "yaml: "))
		}
	}
	return errors.New(strings.Join(out, "; "))
}
