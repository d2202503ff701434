package ask

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"strings"
	"unicode"

	"github.com/compose2manifest/compose2manifest/convert"
	"github.com/compose2manifest/compose2manifest/declare"
	"github.com/compose2manifest/compose2manifest/manifest"
	"github.com/compose2manifest/compose2manifest/report"
	"github.com/compose2manifest/compose2manifest/rules"
)

// ErrEndOfInput is returned by Session.Run and Session.Confirm when the
// input ends before the last answer.
var ErrEndOfInput = errors.New("end of input before the last answer")

// Session is one conversation in plain line mode: it writes questions to
// Out and reads one answer a line from In. It works over a terminal and
// over any pipe.
type Session struct {
	// In is where answers are read from, one a line.
	In io.Reader
	// Out is where context, suggestions and prompts are written.
	Out io.Writer
	// Echo writes each answer after its prompt, for input nobody sees
	// typed (a pipe); a terminal echoes by itself.
	Echo bool
	// DeclarationsFile names the file the answers go to, in messages.
	DeclarationsFile string
	// Doc, when set, is the declarations document the answers go to:
	// each setting and each source is written into it as it is answered
	// (Apply), and Check converts with it.
	Doc *declare.Document
	// Check, when set with Doc, converts the project in memory with the
	// declarations data (nothing is written) and returns the rules'
	// findings. The session checks each answer about a source with it:
	// an answer that brings an error of its own (about the source, or one
	// it now clashes with; not one the declarations had before the
	// source's answers, nor one a later answer gives) is asked again, with
	// the rules' findings; after the source's last answer it shows every
	// error left about it.
	Check func(declarations []byte) ([]rules.Diagnostic, error)

	r *bufio.Reader
	// prev holds the last answer to each field, for "=".
	prev map[string]string
	// all is set once "*" was answered: every later question that allows
	// it takes its suggestion, or is left out without one.
	all bool
}

// Answers are what the author answered in one session.
type Answers struct {
	// HostProjectDirectory and VolumeRoot are the settings answered; ""
	// when not asked or skipped.
	HostProjectDirectory, VolumeRoot string
	// Entries are the answered sources, in the plan's order.
	Entries []Answer
	// Directories are the parent directories declared (RunDirectories),
	// parent first.
	Directories []Answer
}

// Answer is the declaration of one source.
type Answer struct {
	// Section and Key name the declaration, as in convert.Missing.
	Section, Key string
	// Entry is what to write: the values the declarations gave before and
	// the author's answers, leaving out accepted values that convert
	// produces from evidence by itself (so convert keeps naming the
	// evidence).
	Entry declare.Entry
	// Final holds every value the source ends up with, Path being where
	// it lands on the target host.
	Final declare.Entry
	// Write reports whether Entry must be written: it holds a value, or
	// replaces an entry the declarations had.
	Write bool
}

// question is one prompt.
type question struct {
	// label is the prompt, such as "mode (3 or 4 octal digits)".
	label string
	// what names the answer in "… is required"; "" for the label's
	// first word.
	what string
	// help is printed for "?" and when an answer is needed.
	help string
	// sugg is accepted by Enter.
	sugg Suggestion
	// optional lets Enter without a suggestion, or "-", give "".
	optional bool
	// dash lets "-" give "" (Enter still needs an answer).
	dash bool
	// check returns why an answer is invalid, or nil.
	check func(string) error
	// repeat, when not "", names the field whose previous answer "="
	// gives again (the same question about the previous source).
	repeat string
	// all lets "*" accept this suggestion and every later one of the
	// questions that allow it.
	all bool
}

// Run asks about every item of p in turn and returns the answers. It
// returns ErrEndOfInput when the input ends first, and any error reading
// or writing; no answers are returned with an error.
func (s *Session) Run(p *Plan) (*Answers, error) {
	s.init()
	n := len(p.Items)
	file := s.DeclarationsFile
	if file == "" {
		file = declare.DefaultFile
	}
	s.printf("Module %q: %s need%s a declaration in %s.\n", p.Module, report.Plural(n, "source"), singularS(n), file)
	s.printf("Enter accepts the value in [brackets]; - leaves an optional value out; ? explains.\n")
	if n > 1 {
		s.printf("= gives the answer to the same question about the previous source again.\n")
	}
	s.printf("Ctrl-C or Ctrl-D stops without writing anything.\n")

	a := &Answers{}
	if p.NeedsHostProjectDirectory {
		s.printf("\nhost_project_directory: where the project lives on the target host. These relative bind\nsources resolve against it: %s.\n", strings.Join(p.keys(func(m *Item) bool { return m.Missing.NeedsHostProjectDirectory }), ", "))
		v, err := s.ask(question{
			label:    "host_project_directory (such as /opt/" + p.Module + "; Enter skips: each of those sources then needs its own path)",
			help:     "an absolute, clean path on the target host, such as /opt/" + p.Module,
			optional: true,
			check:    checkPath,
		})
		if err != nil {
			return nil, err
		}
		a.HostProjectDirectory = v
		s.setting("host_project_directory", v)
	}
	if p.NeedsVolumeRoot {
		s.printf("\nvolume_root: where named and anonymous volumes land, at VOLUME_ROOT/%s/NAME. These need it:\n%s.\n", p.Module, strings.Join(p.keys(func(m *Item) bool { return m.Missing.NeedsVolumeRoot }), ", "))
		v, err := s.ask(question{
			label:    "volume_root (such as /srv; Enter skips: each of those volumes then needs its own path)",
			help:     "an absolute, clean path on the target host, such as /srv",
			optional: true,
			check:    checkPath,
		})
		if err != nil {
			return nil, err
		}
		a.VolumeRoot = v
		s.setting("volume_root", v)
	}
	for i := range p.Items {
		s.printf("\n[%d/%d] %s\n", i+1, n, p.Items[i].What())
		ans, err := s.item(p, &p.Items[i], a)
		if err != nil {
			return nil, err
		}
		a.Entries = append(a.Entries, ans)
		if s.Doc != nil {
			Apply(s.Doc, &Answers{Entries: []Answer{ans}})
		}
		s.showFindings(&p.Items[i])
	}
	return a, nil
}

// setting writes a setting answered into Doc; "" (skipped) writes none.
func (s *Session) setting(key, v string) {
	if s.Doc != nil && v != "" {
		s.Doc.SetScalar(key, v)
	}
}

// showFindings shows the rules' errors about it left once it is answered:
// convert's own findings, as convert prints them. A conversion that fails
// says so in one line: the final check reports it in full.
func (s *Session) showFindings(it *Item) {
	if s.Check == nil || s.Doc == nil {
		return
	}
	ds, err := s.findings(nil)
	if err != nil {
		s.printf("  convert: %s\n", report.Line(fmt.Sprintf("could not check this answer: %v", err)))
		return
	}
	for _, d := range ds {
		if about(d, &it.Missing) {
			s.printf("  convert: %s\n", report.Line(d.String()))
		}
	}
}

// findings converts with Doc, and pending written into a copy of it when
// not nil, and returns the rules' errors that a declaration settles.
func (s *Session) findings(pending *Answer) ([]rules.Diagnostic, error) {
	doc := s.Doc
	if pending != nil {
		doc = s.Doc.Clone()
		Apply(doc, &Answers{Entries: []Answer{*pending}})
	}
	data, err := doc.Bytes()
	if err != nil {
		return nil, err
	}
	ds, err := s.Check(data)
	if err != nil {
		return nil, err
	}
	var out []rules.Diagnostic
	for _, d := range ds {
		if d.Severity == rules.Error && !rules.NoDeclarationSettles(d) {
			out = append(out, d)
		}
	}
	return out, nil
}

// about reports whether d is a finding about the source m: at one of its
// mounts, or naming it.
func about(d rules.Diagnostic, m *convert.Missing) bool {
	for _, mt := range m.Mounts {
		if d.Service == mt.Service && d.Target == mt.Target && d.Target != "" {
			return true
		}
	}
	return d.Source != "" && d.Source == m.Source
}

// item asks about one source: what it is, then its kind, its owner,
// mode and intent, where it lands, and a note, each only where missing.
func (s *Session) item(p *Plan, it *Item, a *Answers) (Answer, error) {
	s.showSource(it)
	q := &itemQuestions{s: s, p: p, it: it, a: a, final: it.Supplied, entry: it.Supplied, kind: it.Supplied.Kind}
	q.final.Fields, q.entry.Fields = nil, nil
	q.baseline()
	for _, step := range []func() error{q.askKind, q.askOwnership, q.askPath, q.askNote} {
		if err := step(); err != nil {
			return Answer{}, err
		}
	}
	m, entry := &it.Missing, q.entry
	entry.Key, q.final.Key = m.Key, m.Key
	ans := Answer{Section: m.Section, Key: m.Key, Entry: entry, Final: q.final}
	// An image VOLUME exists only once declared: its entry is written even
	// when convert produces every value.
	ans.Write = m.Supplied || m.NeedsEntry || entry.Kind != "" || entry.Path != "" || entry.Owner != "" || entry.Mode != "" || entry.Intent != "" || entry.Note != ""
	return ans, nil
}

// showSource prints what is known of it: its mounts, where its data is
// today, its image table row, what is declared already, and why no owner
// was produced.
func (s *Session) showSource(it *Item) {
	m := &it.Missing
	for _, mt := range m.Mounts {
		ro := ""
		if mt.ReadOnly {
			ro = ", read-only"
		}
		img := ""
		if mt.Image != "" {
			img = " (image " + mt.Image + ")"
		}
		s.printf("  service %q%s mounts it at %s%s   %s\n", mt.Service, img, mt.Target, ro, mt.Pos)
	}
	s.printf("  data today: %s\n", it.Today())
	if rs := it.RowSource(); rs != "" {
		s.printf("  %s\n", rs)
	}
	if have := describe(it.Supplied); have != "" {
		s.printf("  already declared: %s\n", have)
	}
	if m.NoOwner != "" {
		s.printf("  no owner produced: %s\n", m.NoOwner)
	}
	if m.OutOfVersion != "" {
		s.printf("  %s\n", m.OutOfVersion)
	}
}

// itemQuestions are the questions about one source, and the answers so
// far: final is the declaration as it will hold, entry what is written
// (a produced value accepted as is is left out of it).
type itemQuestions struct {
	s            *Session
	p            *Plan
	it           *Item
	a            *Answers
	final, entry declare.Entry
	kind         declare.Kind
	// before are the rules' errors before the source's answers (rule and
	// message), which no answer of it is held to.
	before map[string]bool
}

// baseline records the rules' errors before any answer of the source,
// with an entry for it that gives nothing (or the one supplied).
func (q *itemQuestions) baseline() {
	if q.s.Check == nil || q.s.Doc == nil {
		return
	}
	var pending *Answer
	if !q.it.Missing.Supplied {
		pending = &Answer{Section: q.it.Missing.Section, Key: q.it.Missing.Key, Write: true}
	}
	ds, err := q.s.findings(pending)
	if err != nil {
		return
	}
	q.before = map[string]bool{}
	for _, d := range ds {
		q.before[d.Rule+"\x00"+d.Message] = true
	}
}

// verify checks the answer v for field by converting in memory with the
// declarations so far and the source's entry as answered, v included: it
// returns the rules' own errors that v brings (about this source, or
// another it now clashes with), as convert prints them, or nil. Those
// the declarations had before the source's answers, and those later
// answers give (a value or a location still missing, rules.Unanswered),
// are not v's. A conversion that fails holds nothing against v: the
// source's last check says so.
func (q *itemQuestions) verify(field, v string) error {
	if q.s.Check == nil || q.s.Doc == nil {
		return nil
	}
	e := q.entry
	switch field {
	case declare.FieldKind:
		e.Kind = declare.Kind(v)
	case declare.FieldOwner:
		e.Owner = v
	case declare.FieldMode:
		e.Mode = v
	case declare.FieldIntent:
		e.Intent = v
	case declare.FieldPath:
		e.Path = v
	}
	ds, err := q.s.findings(&Answer{Section: q.it.Missing.Section, Key: q.it.Missing.Key, Entry: e, Write: true})
	if err != nil {
		return nil
	}
	var lines []string
	for _, d := range ds {
		if !rules.Unanswered(d) && !q.before[d.Rule+"\x00"+d.Message] {
			lines = append(lines, report.Line(d.String()))
		}
	}
	if len(lines) == 0 {
		return nil
	}
	return fmt.Errorf("%s %s: convert refuses it: %s", field, v, strings.Join(lines, "; "))
}

// checked is a question's check for field: the answer's form (valid),
// then what the rules find with it (verify).
func (q *itemQuestions) checked(field string, valid func(string) error) func(string) error {
	return func(v string) error {
		if valid != nil {
			if err := valid(v); err != nil {
				return err
			}
		}
		return q.verify(field, v)
	}
}

// take records an answer v to a question suggesting sg: written unless it
// is a produced value accepted as is.
func take(dst *string, v string, sg Suggestion) {
	if v == sg.Value && sg.Produced {
		return
	}
	*dst = v
}

// askKind asks a bind's kind, where it is not supplied (or must be said).
func (q *itemQuestions) askKind() error {
	s, it, m, sup := q.s, q.it, &q.it.Missing, q.it.Supplied
	if m.Section != declare.SectionBinds || (m.Supplied && !(m.NeedsKind && sup.Kind == declare.KindNone)) {
		return nil
	}
	label := "kind (directory, file or host)"
	if m.NeedsKind {
		s.printf("  %s %s, and it looks like a file; docker would create a directory there\n", m.Source, notShown(m))
		label = "kind (required, as " + m.Source + " " + notShown(m) + ": file or directory, or host)"
	}
	if m.LinkOutside != "" {
		s.printf("  %s\n", m.LinkOutside)
	}
	v, err := s.ask(question{
		label:  label,
		help:   "directory or file: a path the module owns (owner, mode, intent); host: a path the module uses and never owns, such as a device or a socket",
		sugg:   it.Kind,
		repeat: "kind",
		check:  q.checked(declare.FieldKind, checkKind),
	})
	if err != nil {
		return err
	}
	q.kind = declare.Kind(v)
	q.final.Kind = q.kind
	// An entry without kind is a directory, unless evidence makes it a
	// file: then directory must be said. So must a directory the
	// checkout cannot tell from a file.
	if q.kind != declare.KindDirectory || it.Kind.Value == string(declare.KindFile) || m.NeedsKind {
		var k string
		take(&k, v, it.Kind)
		q.entry.Kind = declare.Kind(k)
	}
	return nil
}

// checkKind refuses an answer that is no kind.
func checkKind(v string) error {
	if k := declare.Kind(v); k == declare.KindNone || !k.Valid() {
		return fmt.Errorf("kind %q: want directory, file or host", v)
	}
	return nil
}

// askOwnership asks owner, mode and intent, each where not supplied; a
// host path has none.
func (q *itemQuestions) askOwnership() error {
	s, it, sup := q.s, q.it, q.it.Supplied
	if q.kind == declare.KindHost {
		s.printf("  a host path: the module uses it, the host never creates, chowns, chmods or removes it\n")
		return nil
	}
	fields := []struct {
		field    string
		dst, fin *string
		have     string
		q        question
	}{
		{declare.FieldOwner, &q.entry.Owner, &q.final.Owner, sup.Owner, question{
			label: "owner (USER:GROUP)", sugg: it.Owner, repeat: "owner",
			help:  "who owns the path on the target host: USER:GROUP, names or numeric ids, both parts, such as 5000:5000",
			check: q.checked(declare.FieldOwner, checkOwner),
		}},
		{declare.FieldMode, &q.entry.Mode, &q.final.Mode, sup.Mode, question{
			label: "mode (3 or 4 octal digits)", sugg: it.Mode, repeat: "mode",
			help:  "the permission bits of the path itself (never recursive), such as 0750",
			check: q.checked(declare.FieldMode, checkMode),
		}},
		{declare.FieldIntent, &q.entry.Intent, &q.final.Intent, sup.Intent, question{
			label: "intent (state, content, config, logs, cache or runtime; ? explains)", sugg: it.Intent, repeat: "intent",
			help:  intentHelp,
			check: q.checked(declare.FieldIntent, checkIntent),
		}},
	}
	// The fields of the entry as answered (Missing.Need, as the skeleton
	// writes them) the declarations do not supply.
	for _, f := range fields {
		if _, ok := it.Missing.Need(q.kind, f.field); !ok || f.have != "" {
			continue
		}
		if f.dst == &q.entry.Owner && it.OwnerFromVariables {
			s.printf("  note: the owner comes from variables in user:, which CI may not have; ask writes it out\n")
		}
		v, err := s.ask(f.q)
		if err != nil {
			return err
		}
		*f.fin = v
		take(f.dst, v, f.q.sugg)
	}
	return nil
}

// settings returns host_project_directory and volume_root as answered,
// or as known before.
func (q *itemQuestions) settings() (hostDir, volumeRoot string) {
	hostDir, volumeRoot = q.a.HostProjectDirectory, q.a.VolumeRoot
	if hostDir == "" {
		hostDir = q.p.HostProjectDirectory
	}
	if volumeRoot == "" {
		volumeRoot = q.p.VolumeRoot
	}
	return hostDir, volumeRoot
}

// takenBy names what else lands at a path: a path declared for another
// source or directory, a source answered above, or where a source still
// to come lands with the settings; "" for nothing.
func (q *itemQuestions) takenBy(at string) string {
	p, a := q.p, q.a
	hostDir, volumeRoot := q.settings()
	for _, t := range p.Taken {
		if t.Path == at {
			return t.What
		}
	}
	for _, e := range a.Entries {
		if e.Final.Path == at {
			return p.find(e.Section, e.Key).What() + " (answered above)"
		}
	}
	for j := range p.Items {
		if o := &p.Items[j]; o != q.it && !answered(a, o) {
			if to, _ := o.landing(p.Module, hostDir, volumeRoot); to == at {
				return o.What()
			}
		}
	}
	return ""
}

// askPath asks where the source lands, where the settings do not place
// it, or as an optional relocation.
func (q *itemQuestions) askPath() error {
	s, p, it, m, sup, kind := q.s, q.p, q.it, &q.it.Missing, q.it.Supplied, q.kind
	hostDir, volumeRoot := q.settings()
	def, placed := it.landing(p.Module, hostDir, volumeRoot)
	if m.NotOwnable != "" && sup.Path == "" && kind != declare.KindHost {
		// The module may not own it where it is (C2M006): a directory
		// or file needs a place its data moves to; Enter cannot keep it.
		def, placed = "", false
	}
	// A host path takes a path only where nothing else places it: it is
	// the module's view of a path it does not own, never a relocation.
	clash := ""
	if def != "" && sup.Path == "" {
		clash = q.takenBy(def)
	}
	if sup.Path == "" && (kind != declare.KindHost || !placed || clash != "") {
		v, err := s.ask(question{label: pathLabel(p, m, kind, def, placed, clash), optional: placed && clash == "" && (m.LinkOutside == "" || kind == declare.KindHost),
			help: "an absolute, clean path on the target host, such as /srv/" + p.Module + "/data", check: q.checked(declare.FieldPath, checkPath)})
		if err != nil {
			return err
		}
		q.entry.Path = v
		if v != "" {
			def = v
		}
	}
	q.final.Path = def
	if kind == declare.KindHost && def != "" {
		s.printf("  used at %s on the target host\n", def)
	}
	return nil
}

// pathLabel is the path question's prompt: why a path is required, or
// where the source lands without one.
func pathLabel(p *Plan, m *convert.Missing, kind declare.Kind, def string, placed bool, clash string) string {
	switch {
	case clash != "":
		return "path (required, as " + clash + " lands at " + def + " already: another absolute host path)"
	case m.LinkOutside != "" && kind != declare.KindHost:
		return "path (required, as " + m.Source + " is a symbolic link out of the project: an absolute host path)"
	case m.NotOwnable != "" && kind != declare.KindHost && !placed:
		return "path (required, as the module may not own " + m.Key + " there, " + m.NotOwnable + ": an absolute host path its data moves to)"
	case placed && def != "":
		return "path (optional: relocate to another absolute host path; Enter keeps " + def + ")"
	case placed:
		return "path (optional: relocate to an absolute host path; Enter keeps where the settings place it)"
	case m.NeedsPath:
		return "path (required, as the legacy host's home is unknown here: an absolute host path)"
	case m.Section == declare.SectionBinds:
		return "path (required, as host_project_directory is unset: an absolute host path)"
	}
	return "path (required, as volume_root is unset: an absolute host path)"
}

// askNote asks a note, except of a supplied entry that only lacks its
// location: only what is missing is asked.
func (q *itemQuestions) askNote() error {
	m, sup := &q.it.Missing, q.it.Supplied
	if sup.Note != "" || (m.Supplied && m.Complete()) {
		return nil
	}
	v, err := q.s.ask(question{
		label:    "note (optional, free text; Enter for none)",
		help:     "a short note for people, such as \"queue and mailboxes\"",
		optional: true,
		repeat:   "note",
		check:    checkNote,
	})
	if err != nil {
		return err
	}
	q.entry.Note, q.final.Note = v, v
	return nil
}

// answered reports whether a holds the answer for it.
func answered(a *Answers, it *Item) bool {
	for _, e := range a.Entries {
		if e.Section == it.Missing.Section && e.Key == it.Missing.Key {
			return true
		}
	}
	return false
}

// Confirm asks a yes-or-no question; Enter answers yes.
func (s *Session) Confirm(prompt string) (bool, error) {
	return s.yesNo(prompt+" (yes or no)", "yes or no")
}

func (s *Session) init() {
	if s.r == nil {
		s.r = bufio.NewReader(s.In)
	}
}

func (s *Session) printf(format string, args ...any) {
	fmt.Fprintf(s.Out, format, args...)
}

// ask shows a question's suggestion and prompt, and reads answers until
// one is valid. An answer to a question with repeat is remembered for "=".
func (s *Session) ask(q question) (string, error) {
	v, err := s.askOnce(q)
	if err == nil && q.repeat != "" {
		if s.prev == nil {
			s.prev = map[string]string{}
		}
		s.prev[q.repeat] = v
	}
	return v, err
}

// askOnce shows a question's suggestion and prompt, and reads answers
// until one is valid; after "*" it takes the suggestion where q allows.
func (s *Session) askOnce(q question) (string, error) {
	if q.sugg.Value != "" && q.sugg.From != "" {
		s.printf("  suggested: %s — %s\n", q.sugg.Value, q.sugg.Why())
	}
	// After "*", a question that allows it takes its suggestion without
	// asking; one without a suggestion is left out if it may be, and
	// asked otherwise.
	if q.all && s.all && (q.sugg.Value != "" || q.optional || q.dash) {
		s.printf("%s: %s (*)\n", q.label, q.sugg.Value)
		return q.sugg.Value, nil
	}
	for {
		line, err := s.prompt(q)
		if err != nil {
			return "", err
		}
		if line == "*" && q.all {
			s.all = true
			s.printf("  accepting every suggestion from here on\n")
			return s.askOnce(q)
		}
		if v, ok := s.answer(q, line); ok {
			return v, nil
		}
	}
}

// prompt prints q's prompt, its suggestion in brackets, and reads one
// line, echoed when Echo is set.
func (s *Session) prompt(q question) (string, error) {
	prompt := q.label
	if q.sugg.Value != "" {
		prompt += " [" + q.sugg.Value + "]"
	}
	s.printf("%s: ", prompt)
	line, err := s.line()
	if err != nil {
		s.printf("\n")
		return "", err
	}
	if s.Echo {
		s.printf("%s\n", line)
	}
	return line, nil
}

// answer judges one line read for q: it returns the value the line
// gives and true, or false when the line gives none (a request for
// help, an answer missing or invalid), having said why, so that q is
// asked again. "=" stands for the previous answer of q's repeat.
func (s *Session) answer(q question, line string) (string, bool) {
	if line == "=" && q.repeat != "" {
		v, ok := s.prev[q.repeat]
		if !ok {
			s.printf("  = repeats the previous source's %s, and none was answered yet\n", q.repeat)
			return "", false
		}
		s.printf("  = %s (as for the previous source)\n", v)
		if v == "" {
			return "", q.optional || q.dash
		}
		line = v
	}
	switch {
	case line == "?":
		s.printf("  %s\n", strings.ReplaceAll(q.help, "\n", "\n  "))
		return "", false
	case line == "" && q.sugg.Value != "":
		line = q.sugg.Value // checked as if typed
	case line == "" && q.optional, line == "-" && (q.optional || q.dash):
		return "", true
	case line == "":
		s.printf("  an answer is needed: %s\n", strings.ReplaceAll(q.help, "\n", "\n  "))
		return "", false
	case line == "-":
		s.printf("  %s is required (- leaves out only an optional value); ? explains\n", q.name())
		return "", false
	}
	if q.check != nil {
		if err := q.check(line); err != nil {
			s.printf("  %v; try again\n", err)
			return "", false
		}
	}
	return line, true
}

// line reads one line without its line ending and surrounding blanks.
func (s *Session) line() (string, error) {
	l, err := s.r.ReadString('\n')
	if err != nil && (!errors.Is(err, io.EOF) || l == "") {
		if errors.Is(err, io.EOF) {
			return "", ErrEndOfInput
		}
		return "", err
	}
	return strings.TrimSpace(l), nil
}

const intentHelp = `what the data is, judged by what the software does with it:
state    data the software writes and cannot rebuild (databases, spools, keys); backed up
content  data people or other services see the layout of (media, web roots); backed up
config   configuration the module's repo can recreate; the software only reads it
logs     log files the software writes
cache    data the software can rebuild (thumbnails, proxy caches); removed with the module
runtime  sockets, pid and lock files; removed with the module`

func checkOwner(v string) error {
	switch problem := manifest.OwnerProblem(v); problem {
	case "":
	case manifest.NotUserGroup:
		return fmt.Errorf("owner %q: want USER:GROUP, names or numeric ids (0 to 4294967294), both parts, such as 5000:5000", v)
	default:
		return fmt.Errorf("owner %q %s", v, problem)
	}
	return nil
}

func checkMode(v string) error {
	if !manifest.ValidMode(v) {
		return fmt.Errorf("mode %q: want 3 or 4 octal digits (0-7), such as 0750", v)
	}
	return nil
}

func checkIntent(v string) error {
	if !manifest.Intent(v).Valid() {
		return fmt.Errorf("intent %q: want one of state, content, config, logs, cache, runtime (? explains)", v)
	}
	return nil
}

func checkPath(v string) error {
	if !manifest.ValidPath(v) || strings.ContainsFunc(v, unicode.IsControl) {
		return fmt.Errorf("path %q: want an absolute, clean path (starting with /, no .., no trailing /)", v)
	}
	return nil
}

func checkNote(v string) error {
	if strings.ContainsFunc(v, unicode.IsControl) {
		return fmt.Errorf("note: control characters are not allowed")
	}
	return nil
}

// describe lists the values an entry gives, such as
// "mode 0750, intent state".
func describe(e declare.Entry) string {
	var parts []string
	add := func(name, v string) {
		if v != "" {
			parts = append(parts, name+" "+v)
		}
	}
	add("kind", string(e.Kind))
	add("path", e.Path)
	add("owner", e.Owner)
	add("mode", e.Mode)
	add("intent", e.Intent)
	add("note", e.Note)
	return strings.Join(parts, ", ")
}

// keys lists the keys of the items keep selects.
func (p *Plan) keys(keep func(*Item) bool) []string {
	var out []string
	for i := range p.Items {
		if keep(&p.Items[i]) {
			out = append(out, p.Items[i].Missing.Key)
		}
	}
	return out
}

// name is what a question asks for: the first word of its label, such as
// "mode".
func (q question) name() string {
	if q.what != "" {
		return q.what
	}
	n, _, _ := strings.Cut(q.label, " ")
	return n
}

func singularS(n int) string {
	if n == 1 {
		return "s"
	}
	return ""
}
