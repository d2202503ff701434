// Package manual names the page of the reference manual (docs/) that
// documents each command, for the commands' --help.
package manual

// pageOf maps a command to its page under docs/.
var pageOf = map[string]string{
	"convert":    "convert.md",
	"check":      "check.md",
	"ask":        "ask.md",
	"plan":       "plan.md",
	"inventory":  "inventory.md",
	"survey":     "survey.md",
	"rules":      "rules.md",
	"explain":    "rules.md",
	"version":    "install.md",
	"schema":     "install.md",
	"completion": "install.md",
	"man":        "install.md",
}

// Page returns the page of docs/ that documents command ("convert.md"),
// or "reference.md", the manual's index, for a command with no page of
// its own.
func Page(command string) string {
	if p, ok := pageOf[command]; ok {
		return p
	}
	return "reference.md"
}

// URL returns where Page(command) is read on the repository's home page.
func URL(command string) string {
	return "https://github.com/compose2manifest/compose2manifest/blob/main/docs/" + Page(command)
}
