// Package skeletontest fills a refusal's declarations skeleton with
// placeholder values, as an author would fill it, for tests and benchmarks
// that need a project to convert all the way.
package skeletontest

import (
	"fmt"

	"github.com/compose2manifest/compose2manifest/declare"

	"go.yaml.in/yaml/v3"
)

// Fill returns skeleton with every empty value replaced by a placeholder
// of the right form: owner "0:0", mode "0755", intent state, a distinct
// path under /srv/placeholder, host_project_directory /opt/placeholder,
// volume_root /srv, and kind file (an empty kind is left for a source that
// is not in the checkout and looks like a file), and each empty acknowledge:
// item the first choice its comment offers (declare.AckChoiceComment: for
// a credential, the image is taken to read the credential's file; for a
// field not carried, it is left behind). It returns an error when skeleton is not YAML or has an empty
// value of another key.
func Fill(skeleton []byte) ([]byte, error) {
	var doc yaml.Node
	if err := yaml.Unmarshal(skeleton, &doc); err != nil {
		return nil, fmt.Errorf("skeleton is not YAML: %w", err)
	}
	n := 0
	var bad error
	var fill func(key string, v *yaml.Node)
	fill = func(key string, v *yaml.Node) {
		switch v.Kind {
		case yaml.DocumentNode, yaml.SequenceNode:
			item := ""
			if key == "acknowledge" {
				item = key
			}
			for _, c := range v.Content {
				fill(item, c)
			}
		case yaml.MappingNode:
			for i := 0; i+1 < len(v.Content); i += 2 {
				fill(v.Content[i].Value, v.Content[i+1])
			}
		case yaml.ScalarNode:
			if v.Value != "" {
				return
			}
			n++
			switch key {
			case "owner":
				v.Value = "0:0"
			case "mode":
				v.Value = "0755"
			case "intent":
				v.Value = "state"
			case "kind":
				v.Value = "file"
			case "path":
				v.Value = fmt.Sprintf("/srv/placeholder/%d", n)
			case "host_project_directory":
				v.Value = "/opt/placeholder"
			case "volume_root":
				v.Value = "/srv"
			case "acknowledge":
				choices := declare.AckChoices(v.LineComment)
				if len(choices) == 0 {
					bad = fmt.Errorf("skeleton has an empty acknowledge: item without choices: %q", v.LineComment)
					return
				}
				v.Value = choices[0]
			default:
				bad = fmt.Errorf("skeleton has an empty %q", key)
			}
		}
	}
	fill("", &doc)
	if bad != nil {
		return nil, bad
	}
	return yaml.Marshal(&doc)
}
