// Package report writes the outcome of convert and check in the formats of
// SPEC section 8: text for people, JSON for programs, SARIF 2.1.0 for code
// scanning, and GitHub workflow commands for pull-request annotations.
//
// A Report is plain data; each writer depends only on it (and, for SARIF, the
// rule list), so the same Report always gives the same bytes.
package report

import (
	"bytes"
	"encoding/json"
	"io"
	"strings"

	"github.com/compose2manifest/compose2manifest/internal/textsafe"
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
// will be published; see docs/reference.md), for SARIF's
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
	return EncodeJSON(w, out)
}

// EncodeJSON writes v to w as the reports of compose2manifest are
// written: indented by two spaces, with <, > and & as they are, and what
// a terminal or a CI log must not get raw escaped (SafeJSON).
func EncodeJSON(w io.Writer, v any) error {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return err
	}
	_, err := w.Write(SafeJSON(b.Bytes()))
	return err
}

// SafeJSON returns the JSON document doc with what encoding/json leaves
// raw, and a terminal or a CI log must not get raw, written as \u
// escapes, which decode to the same text: DEL, the C1 controls (NEL,
// CSI), the bidirectional controls (as Escape lists them), and the "["
// of every "##[" (GitHub's runner reads "##[" anywhere in a log line as
// its older workflow command). encoding/json already escapes the other
// control characters, and no JSON line starts with "::". All of these
// are found only inside JSON strings, where a \u escape means the same.
func SafeJSON(doc []byte) []byte { return textsafe.JSON(doc) }

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
