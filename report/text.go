package report

import (
	"fmt"
	"io"
	"strings"

	"github.com/compose2manifest/compose2manifest/internal/textsafe"
)

// WriteText writes every diagnostic of r on one line, as
// Diagnostic.String formats it, followed by an indented "  fix: …" line
// when it has a fix. Each line is made safe with Line.
func WriteText(w io.Writer, r *Report) error {
	var b strings.Builder
	for _, m := range r.Modules {
		for _, d := range m.Diagnostics {
			b.WriteString(Line(d.String()))
			b.WriteByte('\n')
			if d.Fix != "" {
				fmt.Fprintf(&b, "  fix: %s\n", Line(d.Fix))
			}
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// Line makes s, text that may carry names and messages from a compose
// project anyone can edit, safe to print as one line of a terminal or CI
// log:
//
//   - its lines are joined: every run of white space, line breaks
//     included, is one space, and white space at either end is dropped
//     (so a multi-line error from compose-go is one line);
//   - every other control character (ESC, BEL, DEL, the C1 controls),
//     every byte that is not UTF-8 and the Unicode controls that reorder
//     or break text (bidirectional overrides, line separators) is shown
//     escaped, as \x1b or \u202e, so nothing reaches a terminal raw;
//   - it never starts a GitHub Actions workflow command: a leading "::"
//     is written "\x3a:", and "##[" (the runner's older command prefix,
//     found anywhere in a line) is written "##\x5b".
//
// The result is for people; it is not meant to be parsed back.
func Line(s string) string {
	return guard(Escape(strings.Join(strings.Fields(s), " "), false))
}

// Lines splits s at its line breaks and makes each line safe with Line,
// leaving out the lines that are blank: for a message of several lines
// (compose-go's "the project is not consistent:" and one line per
// problem) printed as a first line and indented continuation lines.
func Lines(s string) []string {
	var out []string
	for _, l := range strings.FieldsFunc(s, func(r rune) bool { return r == '\n' || r == '\r' }) {
		if l = Line(l); l != "" {
			out = append(out, l)
		}
	}
	return out
}

// Block makes each line of s, a block of several lines such as a YAML
// skeleton, safe as Line does, but keeps its lines and their indentation:
// control characters other than the line breaks are shown escaped, and a
// line whose text starts with "::" after its indentation, or that holds
// "##[", is written as Line writes it. A trailing line break is kept.
func Block(s string) string {
	lines := strings.SplitAfter(s, "\n")
	for i, l := range lines {
		body, nl := strings.CutSuffix(l, "\n")
		body = guard(Escape(body, false))
		if nl {
			body += "\n"
		}
		lines[i] = body
	}
	return strings.Join(lines, "")
}

// guard is textsafe.Guard.
func guard(s string) string { return textsafe.Guard(s) }

// Escape shows each control character of s escaped (\x1b, \u202e; \n,
// \r and \t as such), and each byte that is not UTF-8 as \xNN. With
// keepBreaks, \n and \r are left as they are, for a caller that escapes
// them in its own way (GitHub's %0A). Other text, a backslash included,
// is unchanged.
func Escape(s string, keepBreaks bool) string { return textsafe.Escape(s, keepBreaks) }

// unsafeRune is textsafe.Unsafe.
func unsafeRune(r rune) bool { return textsafe.Unsafe(r) }
