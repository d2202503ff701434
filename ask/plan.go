// Package ask holds the conversation of the ask command: for each source a
// conversion is missing a declaration for, it shows what is known, offers
// suggestions (evidence, and hints from the target path clearly marked as
// such), asks for each missing value in turn and validates the answer.
//
// NewPlan turns convert's Missing list into Items with their suggestions.
// A Session runs the conversation over any io.Reader and io.Writer in plain
// line mode, so it works on a terminal and over a pipe alike. It writes
// each answer into one declare.Document (Session.Doc, through Apply) and
// checks each answer by converting that document in memory
// (Session.Check): what the rules refuse is asked again in the rules' own
// words; ask judges no rule itself. Skeleton and WriteGitHub print the
// same questions for readers that cannot answer, from the same typed
// value of what is missing (convert.Draft, convert.Missing.Needs): a
// declarations skeleton with the suggestions as comments, and GitHub
// workflow annotations.
//
// Run is the whole workflow of the ask command over those parts: it
// converts the project (answers not yet written are converted in memory,
// convert.Options.Declarations), builds the plan, holds the conversation
// or prints the questions, writes the declarations document (with
// internal/atomicfile) and checks the result as convert will see it. It
// returns an Outcome for the command to print and turn into an exit code.
//
// The package prints and reads only through the streams it is given and
// keeps no state between calls.
package ask

import (
	"fmt"
	"path"
	"sort"
	"strings"

	"github.com/compose2manifest/compose2manifest/convert"
	"github.com/compose2manifest/compose2manifest/declare"
	"github.com/compose2manifest/compose2manifest/images"
	"github.com/compose2manifest/compose2manifest/manifest"
	"github.com/compose2manifest/compose2manifest/rules"
)

// Suggestion is a value offered for one field, with where it came from.
// The zero Suggestion offers nothing.
type Suggestion struct {
	// Value is the value offered; Enter accepts it.
	Value string
	// From says where the value came from, for people, as a statement:
	// "service \"db\" runs as user: 999:999".
	From string
	// Evidence is false for a hint, such as one drawn from the target
	// path's name: a suggestion, not evidence.
	Evidence bool
	// Produced reports that convert produces this value from evidence by
	// itself, so an accepted Produced value is left out of the declaration
	// and convert keeps saying where it came from.
	Produced bool
	// fromUser reports an owner produced from the user: of the services
	// mounting the source (markVariableOwners probes those).
	fromUser bool
}

// Item is one source to ask about.
type Item struct {
	// Missing is what convert reported about the source.
	Missing convert.Missing
	// Supplied holds the values the declarations already give the source;
	// empty fields were not given.
	Supplied declare.Entry
	// Kind, Owner, Mode and Intent are the suggestions for each field.
	Kind, Owner, Mode, Intent Suggestion
	// Row is the image table row the source's mounts match, if any.
	Row *images.Row
	// OwnerFromVariables reports that the owner convert produces comes
	// from a user: that variables write (user: ${UID}:${GID}), which CI
	// may not have: Owner is then not Produced, and an accepted owner is
	// written out.
	OwnerFromVariables bool
}

// Plan is everything to ask about one module.
type Plan struct {
	// Module is the module name.
	Module string
	// Items are the sources to ask about, in the order convert found them.
	Items []Item
	// NeedsHostProjectDirectory and NeedsVolumeRoot report whether a
	// source is placed by that setting and it is unset.
	NeedsHostProjectDirectory, NeedsVolumeRoot bool
	// HostProjectDirectory and VolumeRoot are the settings already known
	// (from flags or the declarations), to show where sources land; ""
	// when unset or unknown.
	HostProjectDirectory, VolumeRoot string
	// Directories are the parent directories nothing declares, for
	// Skeleton (PredictDirectories) and RunDirectories.
	Directories []Directory
	// Taken are the host paths the module already declares for other
	// sources and directories (TakePaths): a relocation there would
	// declare one path twice (C2M005).
	Taken []TakenPath
	// Suggestions are convert's (Result.Suggestions): Skeleton offers
	// their directories:, credentials: and acknowledge: items too.
	Suggestions convert.Suggestions
	// Flags are the settings given as flags that the declarations file
	// does not set: Skeleton writes them, so that the file saved from it
	// converts without the flags.
	Flags Settings
	// Roots are the directories the declarations name under roots:,
	// where the module may own paths besides the data roots, /etc/MODULE,
	// host_project_directory and VOLUME_ROOT/MODULE (C2M006).
	Roots []string
}

// Settings are the declarations' top-level settings ask carries over
// from flags.
type Settings struct {
	HostProjectDirectory, VolumeRoot, Layout string
}

// ownable reports why the module may not own the host path at (C2M006),
// judged by rules.Ownable as convert judges it, with the settings known
// or answered; "" when it may.
func (p *Plan) ownable(at, hostDir, volumeRoot string) string {
	roots := append([]string(nil), p.Roots...)
	if hostDir != "" {
		roots = append(roots, hostDir)
	}
	if volumeRoot != "" {
		roots = append(roots, path.Join(volumeRoot, p.Module))
	}
	if why, ok := rules.Ownable(at, p.Module, roots); !ok {
		return why
	}
	return ""
}

// TakenPath is a host path declared already, and what declares it.
type TakenPath struct {
	// Path is the host path.
	Path string
	// What declares it, for people: "bind ./data", "directories: entry".
	What string
}

// TakePaths records in p.Taken the declared paths of m (the converted
// or candidate module of the conversion the plan comes from) other than
// those of the plan's own sources, which it recognises by where they land
// with the plan's HostProjectDirectory and VolumeRoot: set those first.
func (p *Plan) TakePaths(m *manifest.Module) {
	p.Taken = nil
	if m == nil {
		return
	}
	// A source the declarations place but leave incomplete is in m too.
	type place struct{ path, source string }
	own := map[place]int{}
	for i := range p.Items {
		if at, _ := p.Items[i].landing(p.Module, p.HostProjectDirectory, p.VolumeRoot); at != "" {
			own[place{at, p.Items[i].Missing.Source}]++
		}
	}
	for _, r := range m.Declared() {
		if r.Origin != nil && own[place{r.Path, r.Origin.Source}] > 0 {
			own[place{r.Path, r.Origin.Source}]--
			continue
		}
		what := "a directories: entry"
		switch o := r.Origin; {
		case o == nil:
		case strings.HasPrefix(o.Source, "/"), strings.HasPrefix(o.Source, "."), strings.HasPrefix(o.Source, "~"):
			what = "bind " + o.Source
		case o.Source != "":
			what = "volume " + o.Source
		case len(o.Services) > 0:
			what = "an anonymous volume of service " + o.Services[0]
		default:
			what = "an anonymous volume"
		}
		p.Taken = append(p.Taken, TakenPath{Path: r.Path, What: what})
	}
}

// NewPlan builds the plan for the sources in missing, the Missing list of
// a conversion of the project (what each source is in the checkout comes
// with it: Missing.Local).
//
// supplied tells supplied values from produced ones: it is the Missing
// list of the same project converted with Strict set, in which every known
// value is supplied. Pass nil when missing itself comes from a strict
// conversion; the image table (table, may be nil) then only suggests.
func NewPlan(module string, missing, supplied []convert.Missing, table *images.Table) *Plan {
	p := &Plan{Module: module}
	for _, m := range missing {
		it := Item{Missing: m}
		if m.Supplied {
			it.Supplied = m.Known
			if supplied != nil {
				it.Supplied = declare.Entry{Key: m.Key}
				for _, s := range supplied {
					if s.Section == m.Section && s.Key == m.Key {
						it.Supplied = s.Known
						break
					}
				}
			}
		}
		it.Supplied.Key = m.Key
		// A supplied kind is the author's: ask never changes it.
		if m.Supplied && it.Supplied.Kind == declare.KindNone && m.Known.Kind == declare.KindHost {
			it.Supplied.Kind = declare.KindHost
		}
		if row, ok := matchRow(table, m.Mounts); ok {
			it.Row = &row
		}
		it.suggest(supplied != nil)
		p.NeedsHostProjectDirectory = p.NeedsHostProjectDirectory || m.NeedsHostProjectDirectory
		p.NeedsVolumeRoot = p.NeedsVolumeRoot || m.NeedsVolumeRoot
		p.Items = append(p.Items, it)
	}
	// Ask in the order of the compose file.
	sort.SliceStable(p.Items, func(i, j int) bool {
		a, b := p.Items[i].Missing.Mounts, p.Items[j].Missing.Mounts
		if len(a) == 0 || len(b) == 0 {
			return len(a) > len(b)
		}
		if a[0].Pos.File != b[0].Pos.File {
			return a[0].Pos.File < b[0].Pos.File
		}
		return a[0].Pos.Line < b[0].Pos.Line
	})
	return p
}

// OnlyLocation reports whether every value of the item's source is known
// (or it is a host path) and only its location is missing: a setting,
// host_project_directory or volume_root, or its own path. convert's
// skeleton lists no entry for such a source, only the setting.
func (it *Item) OnlyLocation() bool { return it.Missing.OnlyLocation() }

// matchRow returns the first image table row a mount matches.
func matchRow(table *images.Table, mounts []convert.Mount) (images.Row, bool) {
	if table == nil {
		return images.Row{}, false
	}
	for _, mt := range mounts {
		if row, ok := table.Match(mt.Image, mt.Target); ok {
			return row, true
		}
	}
	return images.Row{}, false
}

// rowFrom describes an image table row as the source of a value.
func rowFrom(row *images.Row, basis bool) string {
	s := fmt.Sprintf("image table row %s (%s:%d)", row.Named(), images.TableFile, row.Line)
	if basis && row.Mode != "" {
		b := row.ModeBasis
		if b == "" {
			b = images.ModeRequired
		}
		s += ", mode " + b
	}
	return s
}

// RowSource names the image table row an item's mounts match and the
// source of its facts, or "" when none matches.
func (it *Item) RowSource() string {
	if it.Row == nil {
		return ""
	}
	return fmt.Sprintf("image table row %s %s (%s:%d), source: %s", it.Row.Repository, it.Row.Path, images.TableFile, it.Row.Line, it.Row.Source)
}

// Why says where a suggestion came from, marking a hint as not evidence:
// "evidence, convert produces it: …", "evidence: …" or "a suggestion, not
// evidence: …".
func (s Suggestion) Why() string {
	switch {
	case s.Evidence && s.Produced:
		return "evidence, convert produces it: " + s.From
	case s.Evidence:
		return "evidence: " + s.From
	}
	return "a suggestion, not evidence: " + s.From
}

// suggest fills the suggestions of it. produced says whether values known
// but not supplied were produced by convert (false for a strict run).
func (it *Item) suggest(produced bool) {
	it.suggestOwnership(produced)
	it.suggestKind(produced)
}

// suggestOwnership suggests owner, mode and intent: the values convert
// produced, else the image table's, else a hint from the target path.
func (it *Item) suggestOwnership(produced bool) {
	m, sup, known := &it.Missing, &it.Supplied, &it.Missing.Known
	// A value known and not supplied was produced by convert from
	// evidence; say which.
	fromKnown := func(field, value, supplied string, rowValue string) Suggestion {
		if value == "" || supplied != "" {
			return Suggestion{}
		}
		s := Suggestion{Value: value, Evidence: true, Produced: produced}
		switch {
		case field == "owner" && m.OwnerFrom != "":
			s.From = m.OwnerFrom
		case it.Row != nil && rowValue == value:
			s.From = rowFrom(it.Row, field == "mode")
		case field == "owner":
			s.From, s.fromUser = userFrom(m.Mounts, value), true
		default:
			s.From = "convert produced it"
		}
		return s
	}
	row := images.Row{}
	if it.Row != nil {
		row = *it.Row
	}
	it.Owner = fromKnown("owner", known.Owner, sup.Owner, row.Owner)
	it.Mode = fromKnown("mode", known.Mode, sup.Mode, row.Mode)
	it.Intent = fromKnown("intent", known.Intent, sup.Intent, string(row.Intent))
	// Without production (strict), the image table still suggests.
	if it.Row != nil && !produced {
		fromRow := func(s *Suggestion, supplied, value string, basis bool) {
			if s.Value == "" && supplied == "" && value != "" {
				*s = Suggestion{Value: value, From: rowFrom(it.Row, basis), Evidence: true}
			}
		}
		fromRow(&it.Owner, sup.Owner, row.Owner, false)
		fromRow(&it.Mode, sup.Mode, row.Mode, true)
		fromRow(&it.Intent, sup.Intent, string(row.Intent), false)
	}
	if it.Intent.Value == "" && sup.Intent == "" {
		it.Intent = intentHint(m)
	}
	if rm := m.RefusedMode; it.Mode.Value == "" && sup.Mode == "" && rm != nil && rm.Suggest != "" {
		// Evidence found a mode nobody should choose: its fix is offered,
		// never carried unless accepted.
		it.Mode = Suggestion{Value: rm.Suggest, From: fmt.Sprintf("%s found %s, not carried: %s", rm.From, rm.Found, rm.Why)}
	}
}

// suggestKind suggests a bind's kind. Only a bind can be a file or a host
// path; a supplied entry without kind declared a directory, unless
// convert needs its kind said (NeedsKind).
func (it *Item) suggestKind(produced bool) {
	m, known := &it.Missing, &it.Missing.Known
	if m.Section != declare.SectionBinds || (m.Supplied && !m.NeedsKind) {
		return
	}
	switch {
	case elsewhere(m.Key) && m.LooksLikeFile != "" && hostKind(m).Value == "":
		// Absolute or in a home directory: no checkout can show it, and
		// its name (or its target's) is all there is to go on.
		it.Kind = Suggestion{Value: string(declare.KindFile), From: m.LooksLikeFile + " looks like a file, and the checkout cannot show " + m.Source}
	case m.NeedsKind:
		// No suggestion: the source belongs in the checkout, which has
		// nothing to go on, and an entry without kind would be a guess.
		// The question says so.
	case m.LinkOutside != "":
		it.Kind = Suggestion{Value: string(declare.KindHost), From: m.LinkOutside + ": as a host path the module uses it wherever the link points on the target host (or give it a path of its own)"}
	case known.Kind == declare.KindFile && it.Row != nil && it.Row.Kind == "file":
		it.Kind = Suggestion{Value: string(declare.KindFile), From: rowFrom(it.Row, false), Evidence: true, Produced: produced}
	case known.Kind == declare.KindFile && m.Local.Kind == declare.KindFile:
		it.Kind = Suggestion{Value: string(declare.KindFile), From: m.Source + " is " + localWhat(m), Evidence: true, Produced: produced}
	case known.Kind == declare.KindFile:
		it.Kind = Suggestion{Value: string(declare.KindFile), From: m.Source + " is a regular file in the project", Evidence: true, Produced: produced}
	case m.Moves != "" && known.Owner != "" && known.Mode != "" && known.Intent != "" && !m.WellKnownHost:
		// A source that must move, whose values evidence gave: the
		// container keeps its data there, so it moves with them, rather
		// than being used in place as a host path.
		it.Kind = Suggestion{Value: string(declare.KindDirectory), From: "owner, mode and intent were produced from evidence: the container keeps its " + string(known.Intent) + " there, so " + m.Moves, Evidence: true}
	case hostKind(m).Value != "":
		it.Kind = hostKind(m)
	case it.Row != nil && it.Row.Kind == "file":
		it.Kind = Suggestion{Value: string(declare.KindFile), From: rowFrom(it.Row, false), Evidence: true}
	default:
		it.Kind = localKind(m)
	}
}

// elsewhere reports whether a bind key is absolute or in a home
// directory (~): a path the checkout cannot show.
func elsewhere(key string) bool { return strings.HasPrefix(key, "/") || strings.HasPrefix(key, "~") }

// notShown says why the checkout shows nothing of a source whose kind
// is needed: it is not there, or it is a path it cannot show.
func notShown(m *convert.Missing) string {
	switch {
	case strings.HasPrefix(m.Key, "/"):
		return "is a path on the target host, which the checkout does not show"
	case strings.HasPrefix(m.Key, "~"):
		return "is in a home directory on the legacy host, which the checkout does not show"
	}
	return "is not in the checkout"
}

// notShownAnd is notShown followed by "and", after a comma where the
// clause before it needs one.
func notShownAnd(m *convert.Missing) string {
	if elsewhere(m.Key) {
		return notShown(m) + ", and"
	}
	return notShown(m) + " and"
}

// hostKind suggests kind host for an absolute bind source that is a
// well-known host path (SPEC section 6) or one no module may own (C2M006,
// rules.HostPath): a suggestion, not evidence, since with --strict convert
// does not produce it. It suggests nothing for any other key.
func hostKind(m *convert.Missing) Suggestion {
	key := m.Key
	if !strings.HasPrefix(key, "/") {
		return Suggestion{}
	}
	p := path.Clean(key)
	why, owned := rules.HostPath(p)
	if !owned {
		return Suggestion{}
	}
	if m.WellKnownHost {
		return Suggestion{Value: string(declare.KindHost), From: p + " is a well-known host path the module uses and does not own (convert produces kind host for it without --strict)"}
	}
	return Suggestion{Value: string(declare.KindHost), From: p + " is a host path the module must not own (" + why + "; C2M006)"}
}

// userFrom describes the user: of the services mounting a source as the
// source of owner.
func userFrom(mounts []convert.Mount, owner string) string {
	var services []string
	for _, mt := range mounts {
		if len(services) == 0 || services[len(services)-1] != mt.Service {
			services = append(services, fmt.Sprintf("%q", mt.Service))
		}
	}
	if len(services) == 1 {
		return "service " + services[0] + " runs as user: " + owner
	}
	return "services " + strings.Join(services, ", ") + " run as user: " + owner
}

// localWhat says what a source the checkout shows is (Missing.Local, as
// convert saw it): "a regular file in the project", "a link in the
// project to a directory (./d -> real)".
func localWhat(m *convert.Missing) string {
	ev := m.Local
	if ev.Link != "" {
		return "a link in the project to a " + evidenceWord(ev.Kind) + " (" + ev.Link + ")"
	}
	return "a " + evidenceWord(ev.Kind) + " in the project"
}

// evidenceWord names a kind as the project shows it.
func evidenceWord(k declare.Kind) string {
	if k == declare.KindFile {
		return "regular file"
	}
	return "directory"
}

// localKind looks at what a relative bind source is in the project
// directory on this machine, as convert saw it (Missing.Local): a regular file there is
// evidence of kind file, a directory of kind directory. Anything else (a
// symbolic link out of the project among them) suggests the default
// kind, directory: for a source not in the checkout, because docker
// creates a directory for a missing source.
func localKind(m *convert.Missing) Suggestion {
	ev, key := m.Local, m.Key
	switch ev.Kind {
	case declare.KindFile, declare.KindDirectory:
		return Suggestion{Value: string(ev.Kind), From: key + " is " + localWhat(m), Evidence: true}
	}
	if ev.Absent {
		return Suggestion{Value: string(declare.KindDirectory), From: key + " is not in the checkout, and docker creates a directory for a missing source"}
	}
	return Suggestion{Value: string(declare.KindDirectory), From: "an entry without kind declares a directory"}
}

// intentHint suggests an intent from the first mount's target path, or
// from a read-only mount.
func intentHint(m *convert.Missing) Suggestion {
	if intent, why := convert.IntentHint(m.Key, m.Mounts); intent != "" {
		return Suggestion{Value: intent, From: why}
	}
	return Suggestion{}
}

// What returns how a source is named for people: "bind ./data",
// "named volume dbdata", "anonymous volume db:/data".
func (it *Item) What() string {
	switch it.Missing.Section {
	case declare.SectionVolumes:
		return "named volume " + it.Missing.Key
	case declare.SectionAnonymous:
		return "anonymous volume " + it.Missing.Key
	}
	return "bind " + it.Missing.Key
}

// Today says where the source's data lives under Docker today.
func (it *Item) Today() string {
	m := &it.Missing
	switch {
	case m.Legacy != "":
		return "Docker volume " + m.Legacy
	case m.Section == declare.SectionAnonymous && len(m.Mounts) > 0:
		return "an anonymous Docker volume of service " + m.Mounts[0].Service + " (docker volume ls shows a hashed name)"
	case strings.HasPrefix(m.Key, "/") || strings.HasPrefix(m.Key, "~"):
		return m.Source + " on the legacy host"
	}
	return m.Source + " in the project directory on the legacy host"
}

// landing returns where a source lands on the target host with the given
// settings, and whether it can be placed without a path of its own. The
// place is "" when a setting the plan does not know places it.
func (it *Item) landing(module, hostDir, volumeRoot string) (string, bool) {
	m := &it.Missing
	switch {
	case it.Supplied.Path != "":
		return it.Supplied.Path, true
	case m.NeedsPath:
		return "", false
	case m.Moves != "" && m.NotOwnable == "":
		// A source that must move, under layout fhs (without it,
		// NeedsPath or NotOwnable): its entry alone places it by its
		// intent, never where it is today.
		return "", true
	case m.Section == declare.SectionBinds && strings.HasPrefix(m.Key, "/"):
		return m.Key, true
	case m.Section == declare.SectionBinds:
		if hostDir == "" {
			return "", !m.NeedsHostProjectDirectory
		}
		return path.Join(hostDir, m.Key), true
	case volumeRoot == "":
		return "", !m.NeedsVolumeRoot
	case m.Section == declare.SectionVolumes:
		return path.Join(volumeRoot, module, m.Key), true
	case len(m.Mounts) == 0:
		return "", true
	default:
		mt := m.Mounts[0]
		return path.Join(volumeRoot, module, mt.Service, strings.ReplaceAll(strings.Trim(mt.Target, "/"), "/", "-")), true
	}
}
