package schema_test

import (
	"bytes"
	"encoding/json"
	"os/exec"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/compose2manifest/compose2manifest/internal/schematest"
	"github.com/compose2manifest/compose2manifest/schema"
)

// schemaPatterns returns every regular expression of the published
// schemas: each pattern value and each patternProperties key, sorted and
// without repeats.
func schemaPatterns(t *testing.T) []string {
	t.Helper()
	seen := map[string]bool{}
	var walk func(v any)
	walk = func(v any) {
		switch v := v.(type) {
		case map[string]any:
			for k, x := range v {
				switch {
				case k == "pattern":
					if s, ok := x.(string); ok {
						seen[s] = true
					}
				case k == "patternProperties":
					if m, ok := x.(map[string]any); ok {
						for p := range m {
							seen[p] = true
						}
					}
				}
				walk(x)
			}
		case []any:
			for _, x := range v {
				walk(x)
			}
		}
	}
	for _, name := range schema.Names() {
		data, err := schema.Get(name)
		if err != nil {
			t.Fatal(err)
		}
		var doc any
		if err := json.Unmarshal(data, &doc); err != nil {
			t.Fatalf("schema %s: %v", name, err)
		}
		walk(doc)
	}
	out := make([]string, 0, len(seen))
	for p := range seen {
		out = append(out, p)
	}
	sort.Strings(out)
	return out
}

// TestPatternsECMA: JSON Schema's patterns are ECMA-262 regular
// expressions, so the published schemas write none of Go's own syntax
// (\x{80}, which ECMA-262 refuses with the u flag and reads as "x" eighty
// times without it; \A, \z, (?i), [[:alpha:]], \p{…} without u), and the
// tests' validator reads them through GoPattern. Where node is installed,
// each pattern is compiled by node's ECMA-262 engine with the u flag;
// without node that part is skipped.
func TestPatternsECMA(t *testing.T) {
	patterns := schemaPatterns(t)
	if len(patterns) < 5 {
		t.Fatalf("found %d patterns in the schemas; the walk is broken", len(patterns))
	}
	goOnly := regexp.MustCompile(`\\x\{|\\[Az]|\(\?[imsU]|\[\[:`)
	for _, p := range patterns {
		if goOnly.MatchString(p) {
			t.Errorf("pattern %q uses Go's regexp syntax, not ECMA-262's (write \\u0080, not \\x{80})", p)
		}
		if _, err := regexp.Compile(schematest.GoPattern(p)); err != nil {
			t.Errorf("pattern %q does not compile in Go through GoPattern: %v", p, err)
		}
	}
	// The check itself: the form the schemas used to write is caught.
	if !goOnly.MatchString(`[^\x00-\x1f\x7f\x{80}-\x{9f}]`) {
		t.Error(`the Go-syntax check misses \x{80}`)
	}
	if got := schematest.GoPattern(`[^\\u0041\u0080-\u009f]`); got != `[^\\u0041\x{0080}-\x{009f}]` {
		t.Errorf("GoPattern = %q", got)
	}
	t.Run("node", func(t *testing.T) {
		node, err := exec.LookPath("node")
		if err != nil {
			t.Skip("node is not installed: the patterns are not compiled as ECMA-262 here")
		}
		list, err := json.Marshal(append(patterns, `[\x{80}]`))
		if err != nil {
			t.Fatal(err)
		}
		// Print, for each pattern, "ok" or the engine's error.
		const script = `const ps = JSON.parse(require("fs").readFileSync(0, "utf8"));
for (const p of ps) { try { new RegExp(p, "u"); console.log("ok"); } catch (e) { console.log(String(e.message).replace(/\n/g, " ")); } }`
		cmd := exec.Command(node, "-e", script)
		cmd.Stdin = bytes.NewReader(list)
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("node: %v", err)
		}
		lines := strings.Split(strings.TrimSuffix(string(out), "\n"), "\n")
		if len(lines) != len(patterns)+1 {
			t.Fatalf("node printed %d lines for %d patterns:\n%s", len(lines), len(patterns)+1, out)
		}
		for i, p := range patterns {
			if lines[i] != "ok" {
				t.Errorf("pattern %q is not an ECMA-262 regular expression: %s", p, lines[i])
			}
		}
		if lines[len(patterns)] == "ok" {
			t.Error(`node accepts [\x{80}] with the u flag: the check cannot fail`)
		}
	})
}
