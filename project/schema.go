package project

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/compose-spec/compose-go/v2/schema"
	"github.com/compose2manifest/compose2manifest/manifest"
	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/santhosh-tekuri/jsonschema/v6/kind"
	"go.yaml.in/yaml/v3"
	"golang.org/x/text/language"
	"golang.org/x/text/message"
)

// schemaProblem is a violation of the Compose Specification's schema, as
// compose-go words it, with the key path it is at.
type schemaProblem struct {
	path        []string
	msg         string
	specificity int  // as compose-go ranks violations
	vague       bool // a "false schema" violation
}

// schemaError explains a schema failure of compose-go deterministically
// and with a position. compose-go validates with
// santhosh-tekuri/jsonschema and reports the most specific violation,
// breaking ties in the order the validator met them, which is map order:
// a project with two violations is refused with one or the other from run
// to run, and the file is named by this machine's path, without a line.
// Here each compose file as written is validated against the same schema
// (compose-go's schema.Schema, which accepts a string wherever
// interpolation may stand), every violation is collected, and in the
// first file that has any, the most specific one is chosen, ties broken
// by key path. It returns "FILE:LINE: MESSAGE", or nil when no file shows
// a violation (compose-go's error then stands: the violation arose from
// merging or interpolation).
func schemaError(raw *rawIndex) error {
	for _, f := range raw.files {
		var v any
		if err := f.root.Decode(&v); err != nil {
			continue
		}
		m, ok := v.(map[string]any)
		if !ok {
			continue
		}
		problems, err := validateSchema(m)
		if err != nil || len(problems) == 0 {
			continue
		}
		p := problems[0]
		where := manifest.Pos{File: f.name, Line: nodeLine(f, p.path)}
		if where.Line == 0 {
			where.Line = f.root.Line
		}
		msg := p.msg
		if p.vague && len(p.path) > 0 {
			// The validator's words for a key no branch of the schema
			// allows; say it plainly, keeping them for a search.
			msg = fmt.Sprintf("%s: %s is not an attribute the compose specification defines there (docker compose refuses the file)", msg, p.path[len(p.path)-1])
		}
		return fmt.Errorf("%s: %s", where, msg)
	}
	return nil
}

// validateSchema validates a compose model against compose-go's schema
// and returns every violation, most specific first; at one depth, one
// that says what is wrong before a "false schema", then in key path
// order.
func validateSchema(model map[string]any) ([]schemaProblem, error) {
	compiler := jsonschema.NewCompiler()
	doc, err := jsonschema.UnmarshalJSON(strings.NewReader(schema.Schema))
	if err != nil {
		return nil, err
	}
	if err := compiler.AddResource("compose-spec.json", doc); err != nil {
		return nil, err
	}
	compiler.RegisterFormat(&jsonschema.Format{Name: "duration", Validate: func(any) error { return nil }})
	sch, err := compiler.Compile("compose-spec.json")
	if err != nil {
		return nil, err
	}
	data, err := json.Marshal(model)
	if err != nil {
		return nil, err
	}
	var v any
	if err := json.Unmarshal(data, &v); err != nil {
		return nil, err
	}
	var verr *jsonschema.ValidationError
	if err := sch.Validate(v); !errors.As(err, &verr) {
		return nil, nil
	}
	var leaves []*jsonschema.ValidationError
	var walk func(e *jsonschema.ValidationError)
	walk = func(e *jsonschema.ValidationError) {
		if len(e.Causes) == 0 {
			leaves = append(leaves, e)
			return
		}
		for _, c := range e.Causes {
			walk(c)
		}
	}
	walk(verr)
	out := make([]schemaProblem, 0, len(leaves))
	for _, e := range leaves {
		_, vague := e.ErrorKind.(*kind.FalseSchema)
		out = append(out, schemaProblem{path: e.InstanceLocation, msg: sortLists(schemaMessage(e)), specificity: specificity(e), vague: vague})
	}
	slices.SortStableFunc(out, func(a, b schemaProblem) int {
		if d := b.specificity - a.specificity; d != 0 {
			return d
		}
		if a.vague != b.vague {
			// "false schema" is the validator's word for a branch
			// nothing may match; the other violation at the same
			// depth says what is wrong.
			if a.vague {
				return 1
			}
			return -1
		}
		if c := strings.Compare(strings.Join(a.path, "\x00"), strings.Join(b.path, "\x00")); c != 0 {
			return c
		}
		return strings.Compare(a.msg, b.msg)
	})
	return out, nil
}

// specificity is compose-go's (schema.getMostSpecificError): deeper is
// more specific, and an unknown property one level more so.
func specificity(e *jsonschema.ValidationError) int {
	if _, ok := e.ErrorKind.(*kind.AdditionalProperties); ok {
		return len(e.InstanceLocation) + 1
	}
	return len(e.InstanceLocation)
}

// schemaMessage words a violation as compose-go's schema.validationError
// does.
func schemaMessage(e *jsonschema.ValidationError) string {
	path := strings.Join(e.InstanceLocation, ".")
	switch k := e.ErrorKind.(type) {
	case *kind.Type:
		return fmt.Sprintf("%s must be a %s", path, humanType(k.Want...))
	case *kind.Minimum:
		return fmt.Sprintf("%s must be greater than or equal to %s", path, k.Want.Num())
	case *kind.Maximum:
		return fmt.Sprintf("%s must be less than or equal to %s", path, k.Want.Num())
	}
	return fmt.Sprintf("%s %s", path, e.ErrorKind.LocalizedString(message.NewPrinter(language.English)))
}

// humanType is compose-go's humanReadableType: "mapping" for object,
// several types sorted and joined with "or".
func humanType(want ...string) string {
	names := make([]string, len(want))
	for i, w := range want {
		names[i] = w
		if w == "object" {
			names[i] = "mapping"
		}
	}
	if len(names) == 1 {
		return names[0]
	}
	slices.Sort(names)
	return fmt.Sprintf("%s or %s", strings.Join(names[:len(names)-1], ", "), names[len(names)-1])
}

// nodeLine returns the line of the key (or list item) at path in f, or 0.
func nodeLine(f *rawFile, path []string) int {
	line, _ := nodeAt(f, path)
	return line
}

// nodeAt returns the line of the key (or list item) at path in f and the
// node it holds, or 0 and nil.
func nodeAt(f *rawFile, path []string) (int, *yaml.Node) {
	return nodeUnder(f.root, path)
}

// nodeUnder is nodeAt from the node n.
func nodeUnder(n *yaml.Node, path []string) (int, *yaml.Node) {
	line := 0
	for _, part := range path {
		n = resolve(n)
		if n == nil {
			return 0, nil
		}
		switch n.Kind {
		case yaml.MappingNode:
			k, v := lookup(n, part)
			if k == nil {
				return 0, nil
			}
			line, n = k.Line, v
		case yaml.SequenceNode:
			i, err := strconv.Atoi(part)
			if err != nil || i < 0 || i >= len(n.Content) {
				return 0, nil
			}
			n = n.Content[i]
			line = resolve(n).Line
		default:
			return 0, nil
		}
	}
	return line, resolve(n)
}
