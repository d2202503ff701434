package ask

import (
	"fmt"
	"strings"

	"github.com/compose2manifest/compose2manifest/declare"
	"github.com/compose2manifest/compose2manifest/manifest"
	"github.com/compose2manifest/compose2manifest/rules"
)

// Directory is a directory above declared paths that nothing declares:
// the host would create it as root 0755 (C2M011). Declaring it under
// directories: is optional.
type Directory struct {
	// Path is the directory's absolute host path.
	Path string
	// Below are the declared directories and files below it, at any
	// depth, in path order.
	Below []manifest.Resource
	// Undeclared are the other undeclared directories below it, parent
	// first.
	Undeclared []string
	// Owner, Mode and Intent are the suggestions for each field; none of
	// them is evidence.
	Owner, Mode, Intent Suggestion
	// Host says why the module may not own the directory (rules.Ownable,
	// C2M006: /etc/cron.d, a system subtree, outside its roots); "" when
	// it may. Such a directory is offered as kind: host, never owned.
	Host string
}

// NewDirectories returns the directories to offer: ancestors is convert's
// UndeclaredAncestors (parent-first) and m the module (converted or
// candidate) whose declared paths lie below them. Suggestions come only
// from the declared paths below each directory:
//
//   - owner and intent, when every declared path below it has the same;
//   - mode 0755, when everything below it is a directory (declared, or
//     undeclared and so created 0755 anyway): each of those has a mode of
//     its own, and 0755 is what the host would create it with anyway.
//
// A directory with a declared file below it gets no mode suggestion.
//
// A directory the module may not own (rules.Ownable over m's module name
// and roots, as check judges it) is offered as kind: host instead.
func NewDirectories(ancestors []string, m *manifest.Module) []Directory {
	var module string
	var roots []string
	if m != nil {
		module = m.Module
		for _, r := range m.Roots {
			roots = append(roots, r.Path)
		}
	}
	return newDirectories(ancestors, m, false, func(p string) string {
		if why, ok := rules.Ownable(p, module, roots); !ok {
			return why
		}
		return ""
	})
}

// newDirectories is NewDirectories; predicted says the paths below are
// where sources would land, with the values known so far; host says why
// the module may not own a path ("" when it may).
func newDirectories(ancestors []string, m *manifest.Module, predicted bool, host func(string) string) []Directory {
	var declared []manifest.Resource
	if m != nil {
		for _, r := range m.Declared() {
			if r.Kind != manifest.KindHost {
				declared = append(declared, *r)
			}
		}
	}
	out := make([]Directory, 0, len(ancestors))
	for _, a := range ancestors {
		d := Directory{Path: a}
		for _, r := range declared {
			if under(r.Path, a) {
				d.Below = append(d.Below, r)
			}
		}
		for _, u := range ancestors {
			if under(u, a) {
				d.Undeclared = append(d.Undeclared, u)
			}
		}
		if d.Host = host(a); d.Host == "" {
			d.suggest(predicted)
		}
		out = append(out, d)
	}
	return out
}

// under reports whether p lies below dir.
func under(p, dir string) bool {
	return strings.HasPrefix(p, strings.TrimSuffix(dir, "/")+"/")
}

// suggest fills d's suggestions from the paths below it; predicted says
// they are where sources would land, with the values known so far.
func (d *Directory) suggest(predicted bool) {
	if len(d.Below) == 0 {
		return
	}
	same := func(value func(r *manifest.Resource) string) string {
		v := value(&d.Below[0])
		for i := range d.Below {
			if value(&d.Below[i]) != v {
				return ""
			}
		}
		return v
	}
	what, sofar := "declared path", ""
	if predicted {
		what, sofar = "path", " so far"
	}
	every, is, has := "every "+what+" below it", "is", "has"
	switch len(d.Below) {
	case 1:
		every = "the one " + what + " below it, " + d.Below[0].Path + ","
	case 2:
		every, is, has = "both "+what+"s below it", "are", "have"
	}
	if v := same(func(r *manifest.Resource) string { return r.Owner }); v != "" {
		d.Owner = Suggestion{Value: v, From: every + " " + is + " owned by " + v + sofar}
	}
	if v := same(func(r *manifest.Resource) string { return string(r.Intent) }); v != "" {
		d.Intent = Suggestion{Value: v, From: every + " " + has + " intent " + v + sofar}
	}
	if same(func(r *manifest.Resource) string { return string(r.Kind) }) == string(manifest.KindDirectory) {
		d.Mode = Suggestion{Value: "0755", From: "it holds only directories, each with a mode of its own, and the host would create it as root 0755 anyway"}
		if predicted {
			d.Mode.From = "it would hold only directories, each with a mode of its own, and the host would create it as root 0755 anyway"
		}
	}
}

// PredictDirectories returns the directories to offer for the module m
// (candidate or converted) once the plan's sources are declared: the
// parents of m's declared paths and of where each source would land with
// the settings the plan knows (HostProjectDirectory, VolumeRoot), that
// nothing declares. A source whose place is not known yet adds none. The
// suggestions say they come from the values known so far (evidence and
// declarations), which the author may still change.
func (p *Plan) PredictDirectories(m *manifest.Module) []Directory {
	all := &manifest.Module{}
	have := map[string]bool{}
	if m != nil {
		for _, r := range m.Declared() {
			all.Resources = append(all.Resources, *r)
			have[r.Path] = true
		}
	}
	for i := range p.Items {
		it := &p.Items[i]
		kind := it.Supplied.Kind
		if kind == declare.KindNone {
			kind = it.Missing.Known.Kind
		}
		if kind == declare.KindNone && it.Kind.Evidence {
			kind = declare.Kind(it.Kind.Value)
		}
		if kind == declare.KindHost {
			continue
		}
		at, _ := it.landing(p.Module, p.HostProjectDirectory, p.VolumeRoot)
		if at == "" || !manifest.ValidPath(at) || have[at] {
			continue
		}
		have[at] = true
		r := manifest.Resource{Kind: manifest.KindDirectory, Path: at}
		if kind == declare.KindFile || kind == declare.KindNone && it.Missing.NeedsKind {
			// A file, or perhaps one (its kind is the author's
			// choice): its parent holds not only directories.
			r.Kind = manifest.KindFile
		}
		r.Owner, r.Mode, r.Intent = first(it.Supplied.Owner, it.Missing.Known.Owner), first(it.Supplied.Mode, it.Missing.Known.Mode), manifest.Intent(first(it.Supplied.Intent, it.Missing.Known.Intent))
		all.Resources = append(all.Resources, r)
	}
	// Owners and intents known so far, the author may still change.
	return newDirectories(rules.UndeclaredAncestors(all), all, true, func(at string) string {
		return p.ownable(at, p.HostProjectDirectory, p.VolumeRoot)
	})
}

func first(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

// describeResource shows a declared path's kind, owner, mode and intent,
// "?" for a value not known.
func describeResource(r *manifest.Resource) string {
	q := func(s string) string {
		if s == "" {
			return "?"
		}
		return s
	}
	return fmt.Sprintf("%s %s %s %s", r.Kind, q(r.Owner), q(r.Mode), q(string(r.Intent)))
}

// RunDirectories offers to declare each directory in turn: its owner
// first (- skips the directory, as does Enter when nothing is
// suggested), then its mode and intent (- still skips it) and a note. It
// returns an answer for each directory declared, for Apply (through
// Answers.Directories); a skipped directory keeps its C2M011 warning.
func (s *Session) RunDirectories(dirs []Directory) ([]Answer, error) {
	s.init()
	if len(dirs) == 0 {
		return nil, nil
	}
	what := "this parent directory"
	if len(dirs) > 1 {
		what = fmt.Sprintf("these %d parent directories", len(dirs))
	}
	s.printf("\nNothing declares %s, so the host would create %s as root 0755 (convert\nwarns C2M011). Declaring %s under directories: is optional; - skips one; * accepts every\nsuggestion from there on (a directory without one is skipped).\n",
		what, themIt(len(dirs)), themIt(len(dirs)))
	var out []Answer
	for i := range dirs {
		d := &dirs[i]
		s.printf("\n[%d/%d] directory %s\n", i+1, len(dirs), d.Path)
		if len(d.Below) > 0 {
			s.printf("  declared below it:\n")
			w := 0
			for _, r := range d.Below {
				w = max(w, len(r.Path))
			}
			for j := range d.Below {
				s.printf("    %-*s  %s\n", w, d.Below[j].Path, describeResource(&d.Below[j]))
			}
		}
		if len(d.Undeclared) > 0 {
			s.printf("  also undeclared below it (asked after it): %s\n", strings.Join(d.Undeclared, ", "))
		}
		ask := s.directory
		if d.Host != "" {
			ask = s.hostDirectory
		}
		ans, ok, err := ask(d)
		if err != nil {
			return nil, err
		}
		if !ok {
			s.printf("  skipped: the host creates %s as root 0755 and convert keeps warning C2M011\n", d.Path)
			continue
		}
		out = append(out, ans)
	}
	return out, nil
}

func themIt(n int) string {
	if n == 1 {
		return "it"
	}
	return "them"
}

// directory asks about one directory; ok is false when it is skipped.
func (s *Session) directory(d *Directory) (Answer, bool, error) {
	ownerLabel := "owner (USER:GROUP; - skips this directory)"
	if d.Owner.Value == "" {
		ownerLabel = "owner (USER:GROUP; Enter or - skips this directory)"
	}
	owner, err := s.ask(question{
		all:      true,
		label:    ownerLabel,
		help:     "who owns the directory on the target host: USER:GROUP, names or numeric ids, both parts, such as 0:0; - leaves the directory undeclared (the host creates it as root 0755)",
		sugg:     d.Owner,
		optional: true,
		check:    checkOwner,
	})
	if err != nil || owner == "" {
		return Answer{}, false, err
	}
	mode, err := s.ask(question{
		all:   true,
		label: "mode (3 or 4 octal digits; - skips this directory)",
		help:  "the permission bits of the directory itself (never recursive), such as 0755; the owners of the paths below it need to pass through it (x)",
		sugg:  d.Mode,
		dash:  true,
		check: checkMode,
	})
	if err != nil || mode == "" {
		return Answer{}, false, err
	}
	intent, err := s.ask(question{
		all:   true,
		label: "intent (state, content, config, logs, cache or runtime; - skips this directory; ? explains)",
		help:  intentHelp,
		sugg:  d.Intent,
		dash:  true,
		check: checkIntent,
	})
	if err != nil || intent == "" {
		return Answer{}, false, err
	}
	note, err := s.ask(question{
		all:      true,
		label:    "note (optional, free text; Enter for none)",
		help:     "a short note for people, such as \"the checkout\"",
		optional: true,
		check:    checkNote,
	})
	if err != nil {
		return Answer{}, false, err
	}
	e := declare.Entry{Key: d.Path, Owner: owner, Mode: mode, Intent: intent, Note: note}
	final := e
	final.Kind, final.Path = declare.KindDirectory, d.Path
	return Answer{Section: declare.SectionDirectories, Key: d.Path, Entry: e, Final: final, Write: true}, true, nil
}

// hostDirectory offers a directory the module may not own as kind: host
// (used, never created or changed); ok is false when it is skipped.
func (s *Session) hostDirectory(d *Directory) (Answer, bool, error) {
	s.printf("  the module may not own it: %s (C2M006); declare it kind: host, a directory the module uses\n  and never creates or changes (its owner and mode stay the host's)\n", d.Host)
	kind, err := s.ask(question{
		all:   true,
		label: "kind (host; - skips this directory)",
		help:  "host: the module uses the directory and never creates or changes it; - leaves it undeclared (convert keeps warning C2M011)",
		sugg:  Suggestion{Value: string(declare.KindHost), From: "the module may not own " + d.Path + ": " + d.Host},
		dash:  true,
		check: func(v string) error {
			if v != string(declare.KindHost) {
				return fmt.Errorf("kind %q: the module may not own %s (%s, C2M006): only host, or - to skip", v, d.Path, d.Host)
			}
			return nil
		},
	})
	if err != nil || kind == "" {
		return Answer{}, false, err
	}
	e := declare.Entry{Key: d.Path, Kind: declare.KindHost}
	final := e
	final.Path = d.Path
	return Answer{Section: declare.SectionDirectories, Key: d.Path, Entry: e, Final: final, Write: true}, true, nil
}

// directoryLines is the commented directories: block of the skeleton:
// optional, so commented out, with the suggestions as comments.
func directoryLines(dirs []Directory) []string {
	if len(dirs) == 0 {
		return nil
	}
	out := []string{
		"# Optional: nothing declares these parent directories, so the host would create them as root 0755",
		"# (convert warns C2M011). To declare one, uncomment directories: and its entry and fill in every \"\";",
		"# an entry left commented keeps the warning.",
		"# directories:",
	}
	for i := range dirs {
		d := &dirs[i]
		var below []string
		for _, r := range d.Below {
			below = append(below, r.Path)
		}
		below = append(below, d.Undeclared...)
		if len(below) > 0 {
			out = append(out, "#   # holds "+strings.Join(sortedPaths(below), ", "))
		}
		for _, f := range []struct {
			name string
			s    Suggestion
		}{{"owner", d.Owner}, {"mode", d.Mode}, {"intent", d.Intent}} {
			if f.s.Value != "" {
				out = append(out, fmt.Sprintf("#   # %s %s? — %s", f.name, f.s.Value, f.s.Why()))
			}
		}
		if d.Host != "" {
			out = append(out, fmt.Sprintf("#   # the module may not own it: %s (C2M006)", d.Host))
			out = append(out, fmt.Sprintf("#   %s: {kind: host}", d.Path))
			continue
		}
		out = append(out, fmt.Sprintf("#   %s: {owner: \"\", mode: \"\", intent: \"\"}", d.Path))
	}
	return out
}

func sortedPaths(ps []string) []string {
	out := append([]string(nil), ps...)
	for i := 1; i < len(out); i++ {
		for j := i; j > 0 && manifest.ComparePaths(out[j], out[j-1]) < 0; j-- {
			out[j], out[j-1] = out[j-1], out[j]
		}
	}
	return out
}
