package rules

import (
	"fmt"
	"os"
	"strings"
	"testing"
)

// renderDoc is docs/rules.md: every documented rule under a heading of its
// ID, which is the anchor SARIF's helpUri names (report.RuleHelpURI).
func renderDoc() string {
	var b strings.Builder
	b.WriteString("# Rules\n\n<!-- Generated from rules.Documented() by rules/doc_test.go; C2M_UPDATE=1 go test ./rules rewrites it. -->\n\n")
	b.WriteString("`compose2manifest rules` lists them and `compose2manifest explain ID` prints one; this page is\nthe same text, for SARIF's `helpUri`.\n")
	for _, r := range Documented() {
		fmt.Fprintf(&b, "\n## %s\n\n**%s** (%s", r.ID, r.Title, r.Severity)
		if r.Also != "" {
			fmt.Fprintf(&b, "; some findings are %ss", r.Also)
		}
		b.WriteString(")\n\n")
		b.WriteString(strings.TrimSpace(r.Doc))
		b.WriteString("\n")
	}
	return b.String()
}

func TestRulesDoc(t *testing.T) {
	const file = "../docs/rules.md"
	want := renderDoc()
	if os.Getenv("C2M_UPDATE") != "" {
		if err := os.WriteFile(file, []byte(want), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	got, err := os.ReadFile(file)
	if err != nil || string(got) != want {
		t.Errorf("%s is not up to date with the rules (%v); run C2M_UPDATE=1 go test ./rules -run TestRulesDoc", file, err)
	}
}
