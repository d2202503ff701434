package report

import (
	"fmt"
	"io"
	"sort"
	"strconv"
	"strings"

	"github.com/compose2manifest/compose2manifest/internal/textsafe"
	"github.com/compose2manifest/compose2manifest/rules"
)

// TextOptions says how WriteTextWith writes a report.
type TextOptions struct {
	// ShowAcknowledged writes the findings about what the declarations
	// acknowledge (rules.Diagnostic.Acknowledged) one by one; without it
	// they are counted in one line at the end.
	ShowAcknowledged bool
	// Counts, when not nil, receives the line counting acknowledged
	// findings instead of the report's writer: check writes its findings
	// on stdout, for a pipe, and what sums them up on stderr.
	Counts io.Writer
}

// WriteText writes r for people as WriteTextWith does with the zero
// TextOptions.
func WriteText(w io.Writer, r *Report) error { return WriteTextWith(w, r, TextOptions{}) }

// WriteTextWith writes r for people, one cause per finding:
//
//   - findings of one rule with one Cause (rules.Diagnostic.Cause) are one
//     finding, the cause once and then each source with its line;
//   - findings that say the same thing of the same source and differ
//     only in their service (one YAML line shared by several services)
//     are one finding naming every service;
//   - a rule's fix is written once, after its first finding;
//   - acknowledged findings are counted in one last line, unless
//     opts.ShowAcknowledged.
//
// Every line is made safe with Line. The JSON and SARIF writers keep
// every finding as it is.
func WriteTextWith(w io.Writer, r *Report, opts TextOptions) error {
	var b strings.Builder
	fixed := map[string]bool{}
	acknowledged := 0
	for _, m := range r.Modules {
		var ds []rules.Diagnostic
		for _, d := range m.Diagnostics {
			if d.Acknowledged && !opts.ShowAcknowledged {
				acknowledged++
				continue
			}
			ds = append(ds, d)
		}
		groups := groupFindings(ds)
		names := nameOnce(groups)
		for _, g := range groups {
			for _, l := range g.lines(names) {
				indent := l[:len(l)-len(strings.TrimLeft(l, " "))]
				b.WriteString(indent + Line(l))
				b.WriteByte('\n')
			}
			if d := g.members[0]; d.Fix != "" && !fixed[d.Rule+"\x00"+d.Fix] {
				fixed[d.Rule+"\x00"+d.Fix] = true
				fmt.Fprintf(&b, "  fix: %s\n", Line(d.Fix))
			}
		}
	}
	if _, err := io.WriteString(w, b.String()); err != nil || acknowledged == 0 {
		return err
	}
	if opts.Counts != nil {
		w = opts.Counts
	}
	_, err := fmt.Fprintf(w, "%d acknowledged: see --show-acknowledged\n", acknowledged)
	return err
}

// finding is one finding of a text report: the diagnostics of one cause.
type finding struct {
	members []rules.Diagnostic
	// cause is set for findings grouped by their Cause.
	cause bool
}

// causeAtLeast is how many findings of one cause are written as one:
// fewer are written one by one, each with its own words.
const causeAtLeast = 4

// groupFindings groups ds into findings, in the order of their first
// diagnostic.
func groupFindings(ds []rules.Diagnostic) []*finding {
	causes := map[string]int{}
	for _, d := range ds {
		if d.Cause != "" {
			causes[d.Rule+"\x00"+d.Cause]++
		}
	}
	var out []*finding
	byKey := map[string]*finding{}
	for _, d := range ds {
		if d.Cause != "" && causes[d.Rule+"\x00"+d.Cause] < causeAtLeast {
			d.Cause = ""
		}
		key := strings.Join([]string{d.Rule, string(d.Severity), d.File, d.Source, d.Target, d.Message}, "\x00")
		if d.Cause != "" {
			key = strings.Join([]string{d.Rule, string(d.Severity), "cause", d.Cause}, "\x00")
		}
		if d.Rule == "" {
			key = "" // a failure to read input stands alone
		}
		if f, ok := byKey[key]; ok && key != "" {
			f.members = append(f.members, d)
			continue
		}
		f := &finding{members: []rules.Diagnostic{d}, cause: d.Cause != ""}
		out = append(out, f)
		byKey[key] = f
	}
	return out
}

// nameOnce decides which finding of groups names each source a finding
// grouped by cause is about: the largest one (the first of those), so
// that the others give only its line.
func nameOnce(groups []*finding) map[string]*finding {
	bySize := append([]*finding(nil), groups...)
	sort.SliceStable(bySize, func(i, j int) bool { return bySize[i].sources() > bySize[j].sources() })
	names := map[string]*finding{}
	for _, g := range bySize {
		if !g.cause || len(g.members) == 1 {
			continue
		}
		for _, m := range g.members {
			if _, ok := names[memberName(m)]; !ok {
				names[memberName(m)] = g
			}
		}
	}
	return names
}

// sources returns how many sources f names, each once.
func (f *finding) sources() int {
	seen := map[string]bool{}
	for _, m := range f.members {
		seen[memberName(m)] = true
	}
	return len(seen)
}

// lines returns the text lines of f, before Line makes them safe; an
// indented line keeps its indentation. names says which finding names
// each source (nameOnce).
func (f *finding) lines(names map[string]*finding) []string {
	first := f.members[0]
	if len(f.members) == 1 {
		return []string{first.String()}
	}
	if !f.cause {
		// One thing said of one source by several services.
		d := first
		d.Service = ""
		var services []string
		seen := map[string]bool{}
		for _, m := range f.members {
			if m.Service != "" && !seen[m.Service] {
				seen[m.Service] = true
				services = append(services, strconv.Quote(m.Service))
			}
		}
		line := d.String()
		if len(services) > 0 {
			// d.String with the services where the service stands.
			line = first.Rule + " " + string(first.Severity) + ": services " + strings.Join(services, ", ") + ": " + d.Body()
			if p := d.Pos().String(); p != "" {
				line = p + ": " + line
			}
		}
		if at := otherPositions(f.members); at != "" {
			line += " (also at " + at + ")"
		}
		return []string{line}
	}
	// One cause: the cause once, then each source with its position.
	file := first.File
	for _, m := range f.members {
		if m.File != file {
			file = ""
		}
	}
	head := first.Rule + " " + string(first.Severity) + ": " + first.Cause
	if file != "" {
		head = file + ": " + head
	}
	var items, elsewhere []string
	seen := map[string]bool{}
	for _, m := range f.members {
		pos := memberPos(m, file == "")
		item := memberName(m) + " (" + pos + ")"
		if seen[item] {
			continue
		}
		seen[item] = true
		if g, ok := names[memberName(m)]; ok && g != f {
			elsewhere = append(elsewhere, strings.TrimPrefix(pos, "line "))
			continue
		}
		items = append(items, item)
	}
	out := []string{fmt.Sprintf("%s (%d):", head, len(items)+len(elsewhere))}
	if len(items) > maxVariables && len(elsewhere) == 0 && rules.ComposeSecret(first) && allVariables(f.members) {
		// Secrets, not sources: the skeleton names each (credentials:),
		// and JSON keeps every finding. Other variables (C2M014's unset
		// ones) are in no skeleton: all are listed.
		items = append(items[:maxVariables:maxVariables], fmt.Sprintf("and %d more, each named in the skeleton", len(items)-maxVariables))
	}
	if len(elsewhere) > 0 {
		word := "line"
		if file == "" {
			word = "at"
		} else if len(elsewhere) > 1 {
			word = "lines"
		}
		lead := "at "
		if len(items) > 0 {
			lead = "and at "
		}
		elsewhere[0] = lead + word + " " + elsewhere[0]
		elsewhere[len(elsewhere)-1] += " (sources named in another finding)"
		items = append(items, elsewhere...)
	}
	return append(out, wrap(items, "    ", 100)...)
}

// maxVariables is how many secret variables (C2M015) a finding of one
// cause lists in text before it counts the rest, which the skeleton's
// credentials: names; sources and other variables are always all listed.
const maxVariables = 8

// allVariables reports whether every member is about a variable.
func allVariables(members []rules.Diagnostic) bool {
	for _, m := range members {
		if m.Variable == "" {
			return false
		}
	}
	return true
}

// memberName names what a grouped finding is about: its volume source, or
// its service and target.
func memberName(d rules.Diagnostic) string {
	switch {
	case d.Variable != "":
		return d.Variable
	case d.Source != "":
		return d.Source
	case d.Service != "" && d.Target != "":
		return fmt.Sprintf("service %q %s", d.Service, d.Target)
	case d.Service != "":
		return fmt.Sprintf("service %q", d.Service)
	}
	return d.Message
}

// memberPos is d's line, with its file when withFile.
func memberPos(d rules.Diagnostic, withFile bool) string {
	if withFile {
		return d.Pos().String()
	}
	return "line " + strconv.Itoa(d.Line)
}

// otherPositions lists the positions of members after the first that
// differ from it: "compose.yaml:14, :20".
func otherPositions(members []rules.Diagnostic) string {
	first := members[0].Pos()
	var out []string
	seen := map[string]bool{first.String(): true}
	for _, m := range members[1:] {
		p := m.Pos().String()
		if p == "" || seen[p] {
			continue
		}
		seen[p] = true
		if m.File == first.File {
			p = "line " + strconv.Itoa(m.Line)
		}
		out = append(out, p)
	}
	return strings.Join(out, ", ")
}

// wrap joins items with ", " into lines of at most width bytes where
// they fit, each starting with indent.
func wrap(items []string, indent string, width int) []string {
	var out []string
	line := indent
	for i, it := range items {
		if i < len(items)-1 {
			it += ","
		}
		if line != indent && len(line)+1+len(it) > width {
			out = append(out, line)
			line = indent
		}
		if line != indent {
			line += " "
		}
		line += it
	}
	return append(out, line)
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

// Indent returns s with prefix before each of its lines that is not
// empty.
func Indent(s, prefix string) string {
	var b strings.Builder
	for _, line := range strings.SplitAfter(s, "\n") {
		if line != "" {
			b.WriteString(prefix + line)
		}
	}
	return b.String()
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
