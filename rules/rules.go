// Package rules holds compose2manifest's checks. Each rule is a Rule value
// with a stable ID; All returns them in one list. The converter and the
// manifest checker are two drivers over that list: a rule never prints,
// exits or chooses an output format, it only reports Diagnostics.
package rules

import (
	"fmt"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"github.com/compose2manifest/compose2manifest/manifest"
)

// Severity is how serious a diagnostic is.
type Severity string

// Severities. An error refuses a module; a warning does not, unless the
// driver is asked to treat warnings as errors.
const (
	Error   Severity = "error"
	Warning Severity = "warning"
)

// Diagnostic is one finding, with where it is. Field names follow the JSON
// report of SPEC section 8.
type Diagnostic struct {
	// Rule is the ID of the rule that reported it, such as "C2M001"; empty
	// for a failure to read input.
	Rule     string   `json:"rule"`
	Severity Severity `json:"severity"`
	// File is the file the finding is in, relative to the working or
	// project directory where possible; Line is 1-based, 0 when unknown.
	File string `json:"file,omitempty"`
	Line int    `json:"line,omitempty"`
	// Service, Source and Target name the compose service, the volume
	// source as the compose file writes it, and the container path.
	Service string `json:"service,omitempty"`
	Source  string `json:"source,omitempty"`
	Target  string `json:"target,omitempty"`
	// Variable names the variable a finding is about: VARIABLE for a
	// variable of the project (C2M014), SERVICE.VARIABLE for a service's
	// environment (C2M015, as credentials: names it); "" for most
	// findings.
	Variable string `json:"variable,omitempty"`
	// Module is the module the finding belongs to.
	Module  string `json:"module,omitempty"`
	Message string `json:"message"`
	// Fix says what to do about it.
	Fix string `json:"fix,omitempty"`
	// Cause, when set, names what the finding shares with others of its
	// rule: findings with the same Rule and Cause have one cause and one
	// way out (a setting unset, a volume option used on many mounts), and
	// the text report writes them as one finding naming each source. ""
	// for a finding of its own.
	Cause string `json:"cause,omitempty"`
	// Acknowledged reports a warning about something the declarations
	// acknowledge (a plaintext value carried knowingly, a volume option
	// dropped knowingly): advice already followed, which the text report
	// counts in one line unless asked to show it.
	Acknowledged bool `json:"acknowledged,omitempty"`
	// Related are other places the finding involves (the declaration a
	// conversion took a value from, the other module's path), each with
	// what it is; empty for most findings.
	Related []Related `json:"related,omitempty"`
}

// relate adds a secondary position to d, when pos has a file.
func (d *Diagnostic) relate(pos manifest.Pos, msg string) {
	if pos.File != "" {
		d.Related = append(d.Related, Related{File: pos.File, Line: pos.Line, Message: msg})
	}
}

// Related is a secondary position of a Diagnostic.
type Related struct {
	File    string `json:"file,omitempty"`
	Line    int    `json:"line,omitempty"`
	Message string `json:"message"`
}

// Pos returns the diagnostic's position.
func (d Diagnostic) Pos() manifest.Pos { return manifest.Pos{File: d.File, Line: d.Line} }

// String formats d as "FILE:LINE: RULE SEVERITY: MESSAGE".
func (d Diagnostic) String() string {
	var b strings.Builder
	if p := d.Pos().String(); p != "" {
		b.WriteString(p)
		b.WriteString(": ")
	}
	if d.Rule != "" {
		b.WriteString(d.Rule)
		b.WriteString(" ")
	}
	b.WriteString(string(d.Severity))
	b.WriteString(": ")
	b.WriteString(d.Body())
	return b.String()
}

// Body returns what d says, without its position, rule and severity:
// `service "web": volume "./data": MESSAGE`.
func (d Diagnostic) Body() string {
	var b strings.Builder
	if d.Service != "" {
		fmt.Fprintf(&b, "service %q: ", d.Service)
	}
	if d.Source != "" {
		fmt.Fprintf(&b, "volume %q: ", d.Source)
	}
	b.WriteString(d.Message)
	return b.String()
}

// Pass is what a rule's Check receives: the module to check and the
// callback that records a finding. Report fills in Rule and, when empty,
// Severity and Module.
type Pass struct {
	Module *manifest.Module
	Report func(Diagnostic)
}

// SetPass is what a rule's CheckSet receives: every module checked together.
type SetPass struct {
	Modules []*manifest.Module
	Report  func(Diagnostic)
}

// Scope names what a rule's check function runs over, as the Requires of
// an x/tools analyzer names what it needs.
type Scope string

// Scopes, in the order a driver meets them.
const (
	// ScopeProject is a compose project and its placements: what
	// convert judges before it writes a manifest.
	ScopeProject Scope = "project"
	// ScopeModule is one module manifest.
	ScopeModule Scope = "module"
	// ScopeModules is every module manifest checked together.
	ScopeModules Scope = "modules"
	// ScopeAgainst is a fresh conversion held against the manifest
	// committed for it (check --against).
	ScopeAgainst Scope = "against"
	// ScopePrevious is every module manifest held against the manifests
	// as they were before the change (check --previous).
	ScopePrevious Scope = "previous"
)

// Rule is one check: a plain value, registered nowhere; drivers take a
// list of them (All). Each check function may be nil; a rule has at least
// one, and runs in the scope of each it has.
type Rule struct {
	// ID is stable across versions: "C2M001".
	ID string
	// Title is a one-line summary.
	Title string
	// Doc explains the failure and the fix; its last paragraph is the fix.
	Doc string
	// Severity is the severity of its diagnostics.
	Severity Severity
	// Also is the one other severity some of its diagnostics have, or ""
	// when all have Severity; Doc says when. A check function asks for it
	// by setting Diagnostic.Severity to Also; any other value is replaced
	// by Severity.
	Also Severity
	// Check runs over one module.
	Check func(*Pass)
	// CheckSet runs over every module checked together.
	CheckSet func(*SetPass)
	// CheckProject runs over a compose project and what convert built
	// of it, before a manifest is written.
	CheckProject func(*ProjectPass)
	// SkipBuilt tells convert not to run Check over the module it
	// builds, because CheckProject reports the same findings at the
	// compose file's lines; check still runs Check over manifests.
	SkipBuilt bool
	// CheckAgainst runs over a manifest held against a fresh conversion
	// of its compose project.
	CheckAgainst func(*AgainstPass)
	// CheckPrevious runs over the manifests held against the manifests
	// as they were before the change.
	CheckPrevious func(*PreviousPass)
}

// Scopes returns the scopes r runs in, in the order of the Scope
// constants.
func (r *Rule) Scopes() []Scope {
	var out []Scope
	for _, s := range []struct {
		scope Scope
		has   bool
	}{
		{ScopeProject, r.CheckProject != nil},
		{ScopeModule, r.Check != nil},
		{ScopeModules, r.CheckSet != nil},
		{ScopeAgainst, r.CheckAgainst != nil},
		{ScopePrevious, r.CheckPrevious != nil},
	} {
		if s.has {
			out = append(out, s.scope)
		}
	}
	return out
}

// Lookup returns the rule with the given ID from list, or nil.
func Lookup(list []*Rule, id string) *Rule {
	for _, r := range list {
		if strings.EqualFold(r.ID, id) {
			return r
		}
	}
	return nil
}

// Run runs every rule of list with a Check over m and returns the
// diagnostics in rule order, then in report order.
func Run(list []*Rule, m *manifest.Module) []Diagnostic {
	var out []Diagnostic
	for _, r := range list {
		if r.Check == nil {
			continue
		}
		r.Check(&Pass{Module: m, Report: reporter(r, m.Module, &out)})
	}
	return out
}

// RunSet runs every rule of list with a CheckSet over modules.
func RunSet(list []*Rule, modules []*manifest.Module) []Diagnostic {
	var out []Diagnostic
	for _, r := range list {
		if r.CheckSet == nil {
			continue
		}
		r.CheckSet(&SetPass{Modules: modules, Report: reporter(r, "", &out)})
	}
	return out
}

// Sort orders ds by file, then line, then rule ID. Diagnostics equal in
// all three keep their order, which is the order a rule reported them in
// (Run, RunSet and RunAgainst keep it): a rule tells its findings at one
// line in the order it means them to be read. Sort is the one order every
// driver reports in.
func Sort(ds []Diagnostic) {
	sort.SliceStable(ds, func(i, j int) bool {
		a, b := ds[i], ds[j]
		if a.File != b.File {
			return a.File < b.File
		}
		if a.Line != b.Line {
			return a.Line < b.Line
		}
		return a.Rule < b.Rule
	})
}

func reporter(r *Rule, module string, out *[]Diagnostic) func(Diagnostic) {
	fix := "" // fixOf(r), found at the first diagnostic that needs it
	return func(d Diagnostic) {
		d.Rule = r.ID
		if r.Also == "" || d.Severity != r.Also {
			d.Severity = r.Severity
		}
		if d.Module == "" {
			d.Module = module
		}
		if d.Fix == "" {
			if fix == "" {
				fix = fixOf(r)
			}
			d.Fix = fix
		}
		*out = append(*out, d)
	}
}

// Fix returns the last paragraph of the rule's Doc, which by convention
// says how to fix it, on one line.
func (r *Rule) Fix() string { return fixOf(r) }

// FillFixes sets the Fix of every diagnostic in ds that has a rule of list
// and no fix yet.
func FillFixes(list []*Rule, ds []Diagnostic) {
	for i := range ds {
		if ds[i].Fix != "" || ds[i].Rule == "" {
			continue
		}
		if r := Lookup(list, ds[i].Rule); r != nil {
			ds[i].Fix = r.Fix()
		}
	}
}

// fixOf returns the last paragraph of a rule's Doc, which by convention
// says how to fix it.
func fixOf(r *Rule) string {
	paras := strings.Split(strings.TrimSpace(r.Doc), "\n\n")
	return strings.Join(strings.Fields(paras[len(paras)-1]), " ")
}

// LoadError is the error diagnostic of a project that could not be read
// or converted, its message err's, with File and Line taken from the
// FILE:LINE: the message starts with, when it does (compose.yaml:4:
// yaml: …), so that a report names the place as every other finding does.
func LoadError(err error) Diagnostic {
	d := Diagnostic{Severity: Error, Message: err.Error()}
	if m := loadErrorPos.FindStringSubmatch(d.Message); m != nil {
		d.File = m[1]
		d.Line, _ = strconv.Atoi(m[2])
	}
	return d
}

var loadErrorPos = regexp.MustCompile(`^([^\s:][^:\n]*):(\d+): `)

// Diag builds a diagnostic for rule id at resource r's position, with the
// service and source of r's origin where it has one.
func Diag(r *manifest.Resource, format string, args ...any) Diagnostic {
	d := Diagnostic{File: r.Pos.File, Line: r.Pos.Line, Message: fmt.Sprintf(format, args...)}
	if r.Origin != nil {
		d.Source = r.Origin.Source
		if len(r.Origin.Services) == 1 {
			d.Service = r.Origin.Services[0]
		}
	}
	return d
}

// Decoded returns the error diagnostic of a problem manifest.Decode found:
// a mode written as a YAML integer breaks C2M002; any other problem is a
// format error, which breaks no rule.
func Decoded(e *manifest.Error) Diagnostic {
	d := Diagnostic{Severity: Error, File: e.Pos.File, Line: e.Pos.Line, Message: e.Msg}
	if e.IntegerMode {
		d.Rule = "C2M002"
	}
	return d
}

// ScopeText says where r runs, and the other severity some of its
// findings have: "runs in: project, module; some findings are warnings".
// A rule with no check function (Unreadable) is reported by the drivers.
func (r *Rule) ScopeText() string {
	scopes := make([]string, 0, 5)
	for _, s := range r.Scopes() {
		scopes = append(scopes, string(s))
	}
	if len(scopes) == 0 {
		// Unreadable: reported by the drivers themselves.
		return "reported by convert and check for input they cannot read"
	}
	line := "runs in: " + strings.Join(scopes, ", ")
	if r.Also != "" {
		line += "; some findings are " + string(r.Also) + "s"
	}
	return line
}

// ListText is what compose2manifest rules prints: each documented rule's
// ID, severity and title, then the scopes it runs in, two lines a rule.
func ListText() string {
	var b strings.Builder
	for _, r := range Documented() {
		fmt.Fprintf(&b, "%s  %-7s  %s\n", r.ID, r.Severity, r.Title)
		fmt.Fprintf(&b, "        %s\n", r.ScopeText())
	}
	return b.String()
}

// ExplainText is what compose2manifest explain ID... prints: each named
// rule's ID, severity, title, documentation and scopes, a blank line
// between rules. An unknown ID is an error naming it.
func ExplainText(ids []string) (string, error) {
	list := Documented()
	var b strings.Builder
	for i, id := range ids {
		r := Lookup(list, id)
		if r == nil {
			return "", fmt.Errorf("unknown rule %q", id)
		}
		if i > 0 {
			b.WriteString("\n")
		}
		fmt.Fprintf(&b, "%s (%s): %s\n\n%s\n\n%s\n", r.ID, r.Severity, r.Title, strings.TrimSpace(r.Doc), r.ScopeText())
	}
	return b.String(), nil
}
