package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/spf13/pflag"
)

// documentedFlag is a flag the manual shows a command with.
type documentedFlag struct {
	where, command, flag string
}

var (
	// commandWord is "compose2manifest COMMAND" where a command line
	// starts: at the start, after a space, a slash (./cmd/compose2manifest)
	// or a parenthesis ($(…)), before a space or the end.
	commandWord = regexp.MustCompile(`(?:^|[\s/(])compose2manifest\s+([a-z]+)(?:\s|$)`)
	// flagWord is a long flag, or a one-letter short one standing alone
	// ([-f FILE], -o DIR, -0).
	flagWord = regexp.MustCompile(`(?:^|[\s\[(|])(--[a-z][a-z0-9-]*|-[a-zA-Z0-9])(?:[\s\]=)|/,.]|$)`)
	// segmentEnd ends a command's words: a comment, a pipe into another
	// program (not "| --other-flag" of a synopsis), a list or redirection.
	segmentEnd = regexp.MustCompile(`\s#|\s\|\s+[^-\s]|;|&&|\s>|\s<|` + "`")
	// codeSpan is an inline code span.
	codeSpan = regexp.MustCompile("`([^`]+)`")
)

// documentedFlags returns each flag the markdown text shows a command of
// names with: in code blocks, a line (with its continuation lines: a
// trailing backslash, or the indented "[…" lines of a synopsis) that runs
// compose2manifest COMMAND; in prose, a code span that does, or that
// starts with COMMAND and a flag (`check --jobs`).
func documentedFlags(file, text string, names []string) []documentedFlag {
	isCommand := func(w string) bool {
		for _, n := range names {
			if n == w {
				return true
			}
		}
		return false
	}
	var out []documentedFlag
	add := func(where, segment string) {
		for _, m := range commandWord.FindAllStringSubmatchIndex(segment, -1) {
			cmd := segment[m[2]:m[3]]
			if !isCommand(cmd) {
				continue
			}
			rest := segment[m[3]:]
			if next := commandWord.FindStringIndex(rest); next != nil {
				rest = rest[:next[0]]
			}
			if end := segmentEnd.FindStringIndex(rest); end != nil {
				rest = rest[:end[0]]
			}
			for _, f := range flagWord.FindAllStringSubmatch(rest, -1) {
				out = append(out, documentedFlag{where, cmd, f[1]})
			}
		}
	}
	lines := strings.Split(text, "\n")
	inCode := false
	for i := 0; i < len(lines); i++ {
		line := lines[i]
		where := file + ":" + strconv.Itoa(i+1)
		if strings.HasPrefix(strings.TrimSpace(line), "```") {
			inCode = !inCode
			continue
		}
		if inCode {
			for strings.HasSuffix(line, `\`) && i+1 < len(lines) {
				i++
				line = strings.TrimSuffix(line, `\`) + " " + lines[i]
			}
			for i+1 < len(lines) && strings.HasPrefix(lines[i+1], " ") && strings.HasPrefix(strings.TrimSpace(lines[i+1]), "[") {
				i++
				line += " " + strings.TrimSpace(lines[i])
			}
			add(where, line)
			continue
		}
		for _, m := range codeSpan.FindAllStringSubmatch(line, -1) {
			span := m[1]
			if first, _, _ := strings.Cut(span, " "); isCommand(first) && strings.Contains(span, " -") {
				span = "compose2manifest " + span
			}
			add(where, span)
		}
	}
	return out
}

// TestDocumentedFlagsExist: every flag README.md and docs/*.md show a
// command with (compose2manifest check --jobs N, `convert --batch`) is a
// flag that command parses.
func TestDocumentedFlagsExist(t *testing.T) {
	flags := map[string]*pflag.FlagSet{}
	var names []string
	for _, c := range program().Commands {
		names = append(names, c.Name)
		flags[c.Name] = c.Flags
	}
	files, err := filepath.Glob("../../docs/*.md")
	if err != nil || len(files) < 5 {
		t.Fatalf("docs: %v, %d pages", err, len(files))
	}
	files = append(files, "../../README.md")
	seen := map[string]int{}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range documentedFlags(strings.TrimPrefix(f, "../../"), string(data), names) {
			seen[d.command]++
			fs := flags[d.command]
			name := strings.TrimLeft(d.flag, "-")
			switch {
			case d.flag == "--help" || d.flag == "-h":
			case fs == nil:
				t.Errorf("%s: compose2manifest %s %s: %s takes no flags", d.where, d.command, d.flag, d.command)
			case strings.HasPrefix(d.flag, "--") && fs.Lookup(name) == nil,
				!strings.HasPrefix(d.flag, "--") && fs.ShorthandLookup(name) == nil:
				t.Errorf("%s: compose2manifest %s %s: %s has no flag %s", d.where, d.command, d.flag, d.command, d.flag)
			}
		}
	}
	for _, c := range []string{"convert", "check", "inventory", "ask", "plan", "survey"} {
		if seen[c] == 0 {
			t.Errorf("no flag of %s found in the manual: the extraction is broken", c)
		}
	}
	t.Logf("flags documented per command: %v", seen)
}

// TestDocumentedFlagsExtraction: the extraction finds the flags of a
// synopsis and its continuation lines, of a code span, and leaves out
// what a comment or another program's words say.
func TestDocumentedFlagsExtraction(t *testing.T) {
	text := "Run `check --jobs 4` or `compose2manifest convert --batch ROOT -o DIR`; `--loose` alone says nothing.\n" +
		"```\n" +
		"compose2manifest check [--format text|json] [--warnings-as-errors]\n" +
		"                       [(--previous OLD | --previous-rev REV)] MANIFEST|DIR...\n" +
		"compose2manifest inventory --backup | borg create --paths-from-stdin   # not --comment\n" +
		"go run ./cmd/compose2manifest convert \\\n  -f compose.yaml\n" +
		"```\n"
	var got []string
	for _, d := range documentedFlags("x.md", text, []string{"check", "convert", "inventory"}) {
		got = append(got, d.where+" "+d.command+" "+d.flag)
	}
	want := []string{"x.md:1 check --jobs", "x.md:1 convert --batch", "x.md:1 convert -o",
		"x.md:3 check --format", "x.md:3 check --warnings-as-errors", "x.md:3 check --previous", "x.md:3 check --previous-rev",
		"x.md:5 inventory --backup", "x.md:6 convert -f"}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("got:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}
