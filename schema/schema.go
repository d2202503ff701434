// Package schema holds the JSON Schemas (draft 2020-12) of what
// compose2manifest reads and writes: the declarations file, the module
// manifest, the JSON reports, and the JSON of plan and inventory and the
// legacy-host survey, and the image lock. They are embedded, printed by
// "compose2manifest schema NAME", and the tests validate every such file
// under testdata against them. A YAML document is validated as the JSON
// value it decodes to.
package schema

import (
	"embed"
	"fmt"
)

//go:embed declarations.json manifest.json report.json plan.json inventory.json survey.json lock.json
var files embed.FS

// Names lists the schemas, as "compose2manifest schema NAME" takes them.
func Names() []string {
	return []string{"declarations", "manifest", "report", "plan", "inventory", "survey", "lock"}
}

// Get returns the schema called name (one of Names).
func Get(name string) ([]byte, error) {
	for _, n := range Names() {
		if n == name {
			return files.ReadFile(n + ".json")
		}
	}
	return nil, fmt.Errorf("no schema %q; want declarations, manifest, report, plan, inventory, survey or lock", name)
}

// URL is where the schema called name will be served once the repository
// is published (see docs/reference.md), its $id: the raw file on the main branch,
// which yaml-language-server can fetch.
func URL(name string) string {
	return "https://raw.githubusercontent.com/compose2manifest/compose2manifest/main/schema/" + name + ".json"
}
