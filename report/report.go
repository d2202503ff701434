// Package report writes the outcome of convert and check in the formats of
// SPEC section 8: text for people, JSON for programs, SARIF 2.1.0 for code
// scanning, and GitHub workflow commands for pull-request annotations.
//
// A Report is plain data; each writer depends only on it (and, for SARIF, the
// rule list), so the same Report always gives the same bytes.
package report

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/compose2manifest/compose2manifest/rules"
)

// Statuses of a Module. Convert uses Converted, Refused and Failed; check
// uses Checked, Findings and Failed.
const (
	// Converted: convert wrote the module's manifest.
	Converted = "converted"
	// Refused: convert found an error and wrote nothing.
	Refused = "refused"
	// Failed: the input could not be read (a compose project that does not
	// load, a manifest that does not decode).
	Failed = "error"
	// Checked: check found nothing that fails the check. The module may
	// still carry warnings.
	Checked = "checked"
	// Findings: check found errors, or warnings counted as errors.
	Findings = "findings"
)

// Module is one module's outcome, as SPEC section 8's JSON names it.
type Module struct {
	// Module is the module's name. For a manifest that could not be read,
	// it is the manifest's file name.
	Module string `json:"module"`
	// Status is one of the statuses above.
	Status string `json:"status"`
	// Output is the manifest convert wrote, if any.
	Output string `json:"output,omitempty"`
	// File is the manifest check read, if any.
	File string `json:"file,omitempty"`
	// Skeleton is, for a refused module, a declarations document for
	// exactly the sources that are missing or incomplete, ready to fill in.
	Skeleton string `json:"skeleton,omitempty"`
	// Diagnostics are the module's findings; written as [] when none.
	Diagnostics []rules.Diagnostic `json:"diagnostics"`
}

// FormatVersion is the version of the JSON reports' format, written as
// their "version" field; it changes only when a field changes meaning or
// goes away (a new field does not change it). schema/report.json
// describes it.
const FormatVersion = 1

// InformationURI is compose2manifest's home page (where its repository
// will be published; see the README), for SARIF's
// tool.driver.informationUri; RuleHelpURI builds the rules' helpUri on it.
const InformationURI = "https://github.com/compose2manifest/compose2manifest"

// RuleHelpURI is the documentation of one rule: its section of
// docs/rules.md, which the rules package's tests keep in step with the
// rules' Doc.
func RuleHelpURI(id string) string {
	return InformationURI + "/blob/main/docs/rules.md#" + strings.ToLower(id)
}

// Tool names the program that made a report and its build, as
// runtime/debug.ReadBuildInfo tells it: "(devel)" for a build from a
// checkout, with the VCS revision when the toolchain stamped one.
type Tool struct {
	Name     string `json:"name"`
	Version  string `json:"version"`
	Revision string `json:"revision,omitempty"`
}

// Report is the outcome of one run of convert or check.
type Report struct {
	// Version is the report format's version; WriteJSON writes
	// FormatVersion whatever it holds.
	Version int `json:"version"`
	// Tool is the program that made the report; nil writes none.
	Tool    *Tool    `json:"tool,omitempty"`
	Modules []Module `json:"modules"`
}

// WriteJSON writes r as one indented JSON document with a trailing newline.
// Lists that are empty are written as [], never null.
func WriteJSON(w io.Writer, r *Report) error {
	out := Report{Version: FormatVersion, Tool: r.Tool, Modules: make([]Module, len(r.Modules))}
	for i, m := range r.Modules {
		if m.Diagnostics == nil {
			m.Diagnostics = []rules.Diagnostic{}
		}
		out.Modules[i] = m
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(out)
}

// WriteText writes every diagnostic of r on one line, as
// Diagnostic.String formats it, followed by an indented "  fix: …" line
// when it has a fix.
func WriteText(w io.Writer, r *Report) error {
	var b strings.Builder
	for _, m := range r.Modules {
		for _, d := range m.Diagnostics {
			b.WriteString(oneLine(d.String()))
			b.WriteByte('\n')
			if d.Fix != "" {
				fmt.Fprintf(&b, "  fix: %s\n", oneLine(d.Fix))
			}
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// oneLine joins the lines of s with spaces, so one finding stays on one line.
func oneLine(s string) string {
	return strings.Join(strings.Fields(strings.ReplaceAll(s, "\r", "")), " ")
}

// Body returns what d says, without its position, rule and severity:
// `service "web": volume "./data": MESSAGE`.
func Body(d rules.Diagnostic) string { return d.Body() }

// Count returns how many diagnostics of r are errors and how many are
// warnings.
func Count(r *Report) (errors, warnings int) {
	for _, m := range r.Modules {
		for _, d := range m.Diagnostics {
			if d.Severity == rules.Warning {
				warnings++
			} else {
				errors++
			}
		}
	}
	return errors, warnings
}
