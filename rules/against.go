package rules

import (
	"fmt"
	"path"
	"strings"

	"github.com/compose2manifest/compose2manifest/manifest"
)

// SourceState is how a source a manifest records compares with the file
// it names now.
type SourceState string

// Source states.
const (
	// SourceUnchanged: the file's sha256 is the one recorded.
	SourceUnchanged SourceState = "unchanged"
	// SourceChanged: the file's sha256 differs from the one recorded.
	SourceChanged SourceState = "changed"
	// SourceGone: the file cannot be read.
	SourceGone SourceState = "gone"
	// SourceOutside: the recorded name lies outside the root the projects
	// were found under (an absolute path, or one that climbs out with
	// ".."); the file was not read.
	SourceOutside SourceState = "outside"
)

// SourceCheck is one source a manifest records, held against the file it
// names.
type SourceCheck struct {
	// Source is the source as the manifest records it.
	manifest.Source
	// State says how the file compares.
	State SourceState
	// CurrentSHA256 is the lowercase hex sha256 of the file now, when State is
	// SourceChanged; otherwise empty.
	CurrentSHA256 string
}

// AgainstPass is what a rule's CheckAgainst receives: a manifest committed
// for a compose project, held against a fresh conversion of that project
// (check --against). The driver finds the project, reads its sources and
// converts it once; the rules only judge these facts. Report fills in Rule
// and, when empty, Module (with the manifest's module) and Fix.
type AgainstPass struct {
	// Manifest is the committed manifest, as decoded.
	Manifest *manifest.Module
	// File is the manifest's file name as the user named it: where a
	// finding about the whole manifest is reported when Manifest.Pos has
	// no file.
	File string
	// Root is the folder the projects were found under, as messages name
	// it.
	Root string
	// Candidates lists, when two or more projects under Root convert to
	// the manifest's module, their folders relative to Root: the match is
	// ambiguous and nothing else is known. Otherwise nil.
	Candidates []string
	// Unconverted lists the projects under Root that could not be
	// converted at all, relative to Root, sorted. Messages name them when
	// no project matches.
	Unconverted []string
	// Project is the folder of the project that converts to the
	// manifest's module, as messages name it (relative to the working
	// directory where it lies below it); "" when none does.
	Project string
	// Sources holds every source the manifest records, in its order,
	// each held against the file in Project; nil when Project is "".
	Sources []SourceCheck
	// Conversion is the fresh conversion of Project; nil when Project is
	// "" or converting it failed (the driver reports that failure).
	Conversion *Conversion
	// Report records a finding.
	Report func(Diagnostic)
}

// Conversion is what a project converts to now, as an AgainstPass holds it.
type Conversion struct {
	// Module is the module converted, or, when Refused, the candidate
	// that was refused.
	Module *manifest.Module
	// Refused reports whether the conversion found an error and would
	// write nothing.
	Refused bool
	// Diagnostics are the conversion's own findings, errors and warnings,
	// with File as messages name it (below Project) and Module the
	// manifest's.
	Diagnostics []Diagnostic
	// Unrecorded lists the files that feed the conversion but that the
	// manifest does not record, as messages name them (below Project).
	Unrecorded []string
	// Differences are manifest.Diff(Manifest, Module) when the conversion
	// was not refused; nil otherwise.
	Differences []manifest.Difference
	// VariablesChanged reports that the variables the manifest's
	// fingerprint records have other values in check's environment than
	// in the one it was converted in (the digests differ): differences
	// then come from the environment, not from an edit.
	VariablesChanged bool
	// TextDiffers reports that the manifest's body (all but its
	// fingerprint) is not the text the conversion writes: a comment,
	// spacing or order edited, where Differences may see nothing. False
	// for a manifest with no fingerprint, whose body cannot be told.
	TextDiffers bool
	// DigestHolds reports that the manifest's body digest holds: its
	// bytes are what a conversion writes, or what anyone who recomputed
	// the digest after an edit wrote; it says nothing of who wrote them.
	// EarlierConversion is, for such a manifest, the older conversion
	// version its fingerprint records (convert.ConversionVersion has moved
	// on since), 0 otherwise.
	DigestHolds       bool
	EarlierConversion int
}

// Stale reports whether a recorded source changed, is gone or lies
// outside Root, or a file feeds the conversion that the manifest does not
// record: the manifest was not made from the files there now.
func (p *AgainstPass) Stale() bool {
	for _, s := range p.Sources {
		if s.State != SourceUnchanged {
			return true
		}
	}
	return p.Conversion != nil && len(p.Conversion.Unrecorded) > 0
}

// at returns a diagnostic at pos, or at the manifest's own line when pos
// has no file.
func (p *AgainstPass) at(pos manifest.Pos, format string, args ...any) Diagnostic {
	if pos.File == "" {
		pos = manifest.Pos{File: p.File, Line: p.Manifest.Pos.Line}
	}
	return Diagnostic{File: pos.File, Line: pos.Line, Module: p.Manifest.Module, Message: fmt.Sprintf(format, args...)}
}

// RunAgainst runs every rule of list with a CheckAgainst over the facts
// of pass (whose Report is not used) and returns the diagnostics in rule
// order, then in report order. A pass without a Manifest has none.
func RunAgainst(list []*Rule, pass *AgainstPass) []Diagnostic {
	if pass == nil || pass.Manifest == nil {
		return nil
	}
	var out []Diagnostic
	for _, r := range list {
		if r.CheckAgainst == nil {
			continue
		}
		p := *pass
		p.Report = reporter(r, pass.Manifest.Module, &out)
		r.CheckAgainst(&p)
	}
	return out
}

// checkStaleAgainst reports a manifest that was not made from the files
// its project holds now (C2M008): it records no sources, no project
// converts to its module, a recorded source changed, is gone or lies
// outside the root, or a file now feeds the conversion unrecorded. When it
// is stale, every other way the manifest differs from its conversion is
// reported here too, as the staleness explains it.
func checkStaleAgainst(p *AgainstPass) {
	m := p.Manifest
	switch {
	case len(m.Sources) == 0:
		p.Report(p.at(m.Pos, "the manifest records no sources, so its compose project under %s cannot be found", p.Root))
		return
	case len(p.Candidates) > 0:
		return // C2M017
	case p.Project == "":
		msg := fmt.Sprintf("no compose project under %s converts to module %q", p.Root, m.Module)
		if n := len(p.Unconverted); n > 0 {
			msg += fmt.Sprintf(" (%s could not be converted: %s)", countNoun(n, "project"), abbreviate(p.Unconverted, 5))
		}
		p.Report(p.at(m.Sources[0].Pos, "%s", msg))
		return
	}
	for _, s := range p.Sources {
		switch s.State {
		case SourceOutside:
			p.Report(p.at(s.Pos, "source %s lies outside %s; not read (a defaults file outside it is read when named with --defaults)", s.File, p.Root))
		case SourceGone:
			p.Report(p.at(s.Pos, "source %s is gone from %s", s.File, p.Project))
		case SourceChanged:
			p.Report(p.at(s.Pos, "source %s has changed since the manifest was made (sha256 %.12s…, now %.12s…)", path.Join(p.Project, s.File), s.Source.SHA256, s.CurrentSHA256))
		}
	}
	c := p.Conversion
	if c == nil {
		return
	}
	for _, f := range c.Unrecorded {
		p.Report(p.at(m.Sources[0].Pos, "%s now feeds the conversion, but the manifest does not record it", f))
	}
	if p.Stale() {
		reportDifferences(p, "")
	}
}

// checkEditedAgainst reports, when no source changed, every way the
// manifest differs from its conversion (C2M018): it was edited by hand.
//
// A manifest is held against a conversion with the settings it records
// (converted_with) unless check was given others: then the differences
// are the flags', not a person's, and say so; so do differences that come
// with variables of other values than the manifest was converted with.
func checkEditedAgainst(p *AgainstPass) {
	if p.Stale() {
		return
	}
	prefix := "edited by hand: "
	switch c := p.Conversion; {
	case c != nil && c.Module != nil && !p.Manifest.ConvertedWith.Equal(c.Module.ConvertedWith):
		prefix = fmt.Sprintf("converted with other settings than check was given (check converts with %s): ", c.Module.ConvertedWith)
	case c != nil && c.VariablesChanged:
		prefix = "converted with other values of the variables its fingerprint names than check's environment has (run check with the variables convert had): "
	case c != nil && c.DigestHolds && c.EarlierConversion > 0:
		prefix = fmt.Sprintf("its body digest holds and names an earlier compose2manifest (conversion %d), which may have written it (a digest anyone can recompute after an edit); this one converts the same sources otherwise (convert again): ", c.EarlierConversion)
	case c != nil && c.DigestHolds:
		prefix = "its body digest holds (a digest anyone can recompute after an edit), but its unchanged sources convert otherwise (the checkout or the image table changed since, or it was edited; convert again): "
	}
	reportDifferences(p, prefix)
	c := p.Conversion
	if c == nil || c.Refused || c.Module == nil || !c.TextDiffers || len(c.Differences) > 0 || p.Manifest.Header != c.Module.Header {
		return
	}
	d := p.at(p.Manifest.Pos, "%sits text differs from what convert writes (a comment, spacing or order), though every resource is as converted; convert again to restore it", prefix)
	d.Severity = Warning
	p.Report(d)
}

// reportDifferences reports how the manifest differs from a conversion
// that was not refused, each message starting with prefix: its header line,
// then each difference, but a declared file or directory of the wrong
// kind, which checkKindAgainst reports.
func reportDifferences(p *AgainstPass, prefix string) {
	c := p.Conversion
	if c == nil || c.Refused || c.Module == nil {
		return
	}
	m := p.Manifest
	if m.Header != c.Module.Header {
		msg := fmt.Sprintf("the header line is %q, but the conversion writes %q", m.Header, c.Module.Header)
		if m.Header == "" {
			msg = "the generated header line is missing, so convert would take the file for one a person wrote and not replace it"
		}
		p.Report(p.at(m.Pos, "%s%s", prefix, msg))
	}
	for _, df := range c.Differences {
		if kindMismatch(df) {
			continue
		}
		var pos manifest.Pos
		if df.Old != nil {
			pos = df.Old.Pos
		}
		d := p.at(pos, "%s%s", prefix, df.Message)
		if df.New != nil && df.New.Pos.File != "" {
			rel := p.related(df.New.Pos, "the conversion declares it here")
			d.Message += fmt.Sprintf(" (the conversion declares it at %s)", rel.pos())
			d.Related = append(d.Related, rel)
		}
		p.Report(d)
	}
}

// checkKindAgainst reports a declared file the conversion declares as a
// directory, or the reverse (C2M004): the conversion knows from the
// project, or its declaration, which the source is.
func checkKindAgainst(p *AgainstPass) {
	c := p.Conversion
	if c == nil || c.Refused {
		return
	}
	for _, df := range c.Differences {
		if !kindMismatch(df) {
			continue
		}
		d := p.at(df.Old.Pos, "%s is declared as a %s, but the mount's source is a %s", df.Key, df.Old.Kind, df.New.Kind)
		if df.New.Pos.File != "" {
			rel := p.related(df.New.Pos, "the conversion declares it here")
			d.Message += fmt.Sprintf(" (%s)", rel.pos())
			d.Related = append(d.Related, rel)
		}
		p.Report(d)
	}
}

// checkUncarriedAgainst reports, as errors, the conversion's findings of
// compose fields not carried and not acknowledged (C2M007): a warning when
// converting, they fail check --against.
func checkUncarriedAgainst(p *AgainstPass) {
	if p.Conversion == nil {
		return
	}
	escalate(p, uncarriedID)
}

// checkFilesLeftOutAgainst reports, as errors, the conversion's findings
// of compose files -f leaves out (C2M025).
func checkFilesLeftOutAgainst(p *AgainstPass) {
	if p.Conversion == nil {
		return
	}
	escalate(p, filesLeftOutID)
}

// escalate reports again, as errors, the conversion's warnings of rule id.
func escalate(p *AgainstPass, id string) {
	for _, d := range p.Conversion.Diagnostics {
		// An error already fails the check; the driver keeps it as is.
		if d.Rule == id && EscalatedAgainst(d) {
			d.Severity = Error
			p.Report(d)
		}
	}
}

// EscalatedAgainst reports whether d, a finding of a conversion, is one
// check --against reports as an error although converting only warns
// (C2M007, a field not carried; C2M025, a compose file left out by -f): a
// manifest whose conversion had one is never taken as current without
// converting again.
func EscalatedAgainst(d Diagnostic) bool {
	return (d.Rule == uncarriedID || d.Rule == filesLeftOutID) && d.Severity != Error
}

// ReportedAgainst reports whether d, a finding of a conversion, is one
// check --against reports again and so must convert to name: those it
// escalates (EscalatedAgainst), and C2M019, a service left out by its
// profiles, reported as the warning it is, as convert --batch reports it
// (what the service mounts is declared nowhere).
func ReportedAgainst(d Diagnostic) bool {
	return EscalatedAgainst(d) || d.Rule == leftOutID
}

// checkLeftOutAgainst reports again the conversion's findings of
// services left out by their profiles (C2M019), as warnings: so they
// count under --warnings-as-errors.
func checkLeftOutAgainst(p *AgainstPass) {
	if p.Conversion == nil {
		return
	}
	for _, d := range p.Conversion.Diagnostics {
		if d.Rule == leftOutID {
			p.Report(d)
		}
	}
}

// uncarriedID is the ID of the rule for compose fields not carried, whose
// conversion findings checkUncarriedAgainst reports again, and
// filesLeftOutID that of the rule for compose files -f leaves out.
const (
	uncarriedID    = "C2M007"
	filesLeftOutID = "C2M025"
	leftOutID      = "C2M019"
)

// checkAmbiguousAgainst reports a manifest whose module two or more
// projects convert to (C2M017): check cannot tell which it was made from.
func checkAmbiguousAgainst(p *AgainstPass) {
	m := p.Manifest
	if len(m.Sources) == 0 || len(p.Candidates) == 0 {
		return
	}
	p.Report(p.at(m.Pos, "projects %s under %s all convert to module %q: check cannot tell which one the manifest was made from", strings.Join(p.Candidates, ", "), p.Root, m.Module))
}

// kindMismatch reports whether df is a declared file that the conversion
// declares as a directory, or the reverse.
func kindMismatch(df manifest.Difference) bool {
	fileOrDir := func(k manifest.Kind) bool { return k == manifest.KindFile || k == manifest.KindDirectory }
	return df.Old != nil && df.New != nil && fileOrDir(df.Old.Kind) && fileOrDir(df.New.Kind) && df.Old.Kind != df.New.Kind
}

// related returns pos of the conversion, in a file of Project, as a
// Related position named as messages name it.
func (p *AgainstPass) related(pos manifest.Pos, msg string) Related {
	return Related{File: path.Join(p.Project, pos.File), Line: pos.Line, Message: msg}
}

// pos returns r's position as "FILE:LINE".
func (r Related) pos() string { return manifest.Pos{File: r.File, Line: r.Line}.String() }

// countNoun says "1 noun" or "N nouns".
func countNoun(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}

// abbreviate joins the first n items of list and counts the rest.
func abbreviate(list []string, n int) string {
	if len(list) <= n {
		return strings.Join(list, ", ")
	}
	return fmt.Sprintf("%s and %d more", strings.Join(list[:n], ", "), len(list)-n)
}

// OtherProjectFiles is C2M025 in check --against: the manifest in file is
// of the module the folder's own project converts to, but was made, by
// -f, from other compose files (recorded) than those docker compose reads
// there without -f (read): it is not of the project docker compose runs in
// that folder, whose volumes it may lack.
func OtherProjectFiles(file string, m *manifest.Module, recorded, folder, read string) Diagnostic {
	pos := m.Pos
	if m.ConvertedWith != nil && m.ConvertedWith.Pos.File != "" {
		pos = m.ConvertedWith.Pos
	}
	if pos.File == "" {
		pos.File = file
	}
	return Diagnostic{Rule: filesLeftOutID, Severity: Error, File: pos.File, Line: pos.Line, Module: m.Module,
		Message: fmt.Sprintf("module %q is the module of the project docker compose runs in %s without -f (%s), but the manifest was made from %s (-f, converted_with: compose_files): it is not of that project, and what that project mounts is not checked", m.Module, folder, read, recorded)}
}

// EditedSinceConverted is C2M018's warning for plain check (no --against):
// the manifest in file says convert generated it (its header and body
// digest line), but its bytes are no longer those convert wrote. Plain
// check cannot tell what changed, or whether its sources did; the next
// conversion would undo the edit.
func EditedSinceConverted(file string, m *manifest.Module) Diagnostic {
	return Diagnostic{Rule: "C2M018", Severity: Warning, File: file, Line: m.Pos.Line, Module: m.Module,
		Message: "edited since convert wrote it (its body digest no longer holds): check --against tells what differs from what its sources convert to, and the next conversion would undo the edit"}
}

// NoManifest is the finding check --against reports, under C2M008, for a
// compose project under the root that no manifest among the folders it
// checks was made from: file is its first compose file as messages name
// it, project its folder, module the module it converts to ("" when it
// could not be converted at all), out the manifest folders checked. A
// manifest set that lacks a project is as stale as a manifest that lacks
// a change: the project runs under docker with its data undeclared.
func NoManifest(file, project, module, out string) Diagnostic {
	d := Diagnostic{Rule: "C2M008", Severity: Error, File: file, Module: module}
	if module == "" {
		d.Message = fmt.Sprintf("project %s could not be converted, so no manifest in %s is made from it: run compose2manifest convert in it to see why, then convert it into %s (or leave it out with --exclude)", project, out, out)
		return d
	}
	d.Message = fmt.Sprintf("project %s (module %q) has no manifest in %s: convert it into %s (compose2manifest convert --batch) and commit what it writes, or leave it out with --exclude", project, module, out, out)
	return d
}
