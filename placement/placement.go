// Package placement holds what convert decides about a compose project
// before any manifest exists: where each volume source lands on the target
// host and why one could not be placed, the compose fields the manifest
// leaves behind, and the declaration items that match nothing. They are
// facts with positions, as fields, never prose for another package to cut
// apart: convert builds them, the project-scope rules judge them
// (rules.ProjectPass), ask shows them.
package placement

import (
	"slices"

	"github.com/compose2manifest/compose2manifest/declare"
	"github.com/compose2manifest/compose2manifest/manifest"
	"github.com/compose2manifest/compose2manifest/project"
)

// Placement is one host source that needs a declaration: every mount of
// the same bind path, named volume or anonymous volume, across services.
type Placement struct {
	// Section and Key name its declaration: declare.SectionBinds with the
	// bind path, SectionVolumes with the volume name, SectionAnonymous
	// with "SERVICE:TARGET".
	Section, Key string
	// Mounts are its mounts, services in name order; the first is where
	// it is reported.
	Mounts []project.Mount
	// Entry is the supplied declaration, nil when there is none.
	Entry *declare.Entry
	// HostPath is where it lands on the target host, "" when it cannot be
	// placed.
	HostPath string
	// Legacy is where its data lives under Docker today: a named volume's
	// Docker name, "" for a bind.
	Legacy string
	// Real is, for a bind source, the directory or file docker mounts:
	// the key cleaned ("./data", "/srv/x"), through the symbolic links
	// inside the project ("./data" for "./current" of "./current ->
	// data"); "" for any other source and for one under ~.
	Real string
	// Unplaced says why it has no location on the target host (C2M013),
	// nil when it has one. The rules word it (rules.UnplacedMessage).
	Unplaced *Unplaced
	// KindConflict says what contradicts the declared kind (C2M004): a
	// file in the project, a trailing slash, an image table row; "" when
	// nothing does.
	KindConflict string
	// HostProduced reports that no declaration gave its kind and evidence
	// made it kind: host (a well-known host path; a path no module may
	// own that every service mounts read-only): used where it is, never
	// owned, as an entry {kind: host} would be.
	HostProduced bool
	// KindUnknown is, when no kind is declared and nothing tells a file
	// from a directory although the source looks like a file, why
	// (C2M004): a bind source the checkout shows nothing of, whose name
	// or target has a file name's extension (project.LooksLikeFile), where
	// docker would create a directory. nil otherwise.
	KindUnknown *KindUnknown
	// LinkOutside says, for a bind source that is (or runs through) a
	// symbolic link in the checkout that is absolute or leads out of the
	// project, which link and where (C2M013): on the target host it names
	// a place the checkout does not show. "" when the source is no such
	// link, or is declared kind: host or given a path.
	LinkOutside string
	// Undeclared is, when nothing was supplied for it and evidence did
	// not give owner, mode and intent, or gave them for a place the
	// module may not own, what is missing (C2M001); nil when it is
	// declared.
	Undeclared *Undeclared
	// Disagreements are the values of its declaration that one source of
	// evidence gave (or the author supplied) and another contradicts
	// (C2M026), in the order found.
	Disagreements []Disagreement
}

// Disagreement is a value of a source's declaration that another source
// of evidence contradicts: a fact for the rules to word (C2M026).
type Disagreement struct {
	// Field is "owner" or "mode".
	Field string
	// Kept is the value the declaration has, and KeptFrom where it came
	// from ("supplied: compose2manifest.yaml", "image table row postgres
	// /var/lib/postgresql/data (table.yaml:40)").
	Kept, KeptFrom string
	// Other is the value the other evidence gives, and OtherFrom that
	// evidence ("survey old-nas 2026-12-02T15:20:00Z").
	Other, OtherFrom string
}

// Undeclared is what a source nothing declares still lacks: a fact for
// the rules to word (C2M001).
type Undeclared struct {
	// Produced are the values evidence gave ("owner 1000:1000"), Missing
	// the fields still missing ("mode, intent").
	Produced []string
	Missing  string
	// NoOwner says why evidence gave no owner; OutOfVersion why the image
	// table has no row for the image's version; "" otherwise.
	NoOwner, OutOfVersion string
	// NotOwnable, when set, is why the module may not own the source
	// where it is (rules.Ownable), all three values produced: its data
	// must move. Source is the source as written; Layout reports that
	// layout fhs places what is accepted.
	NotOwnable, Source string
	Layout             bool
	// Holder is, with NotOwnable, the undeclared bind the source lies
	// inside, which must move too: once that is declared, the source
	// moves with it, its values produced. "" otherwise.
	Holder string
}

// KindUnknown is why nothing tells whether a bind source is a file or a
// directory: a fact for the rules to word (C2M004).
type KindUnknown struct {
	// Source is the source as the compose file writes it.
	Source string
	// Shown is what the checkout shows of it.
	Shown Shown
	// Looks names what looks like a file: "its name app.conf", "its
	// target /etc/app/config.yml".
	Looks string
}

// Shown is what the checkout shows of a bind source it cannot tell.
type Shown string

// What the checkout shows of a source.
const (
	// ShownAbsent: nothing there.
	ShownAbsent Shown = "absent"
	// ShownLinkOut: a link out of the project.
	ShownLinkOut Shown = "link out"
	// ShownHostPath: an absolute path, on the target host.
	ShownHostPath Shown = "host path"
	// ShownHome: a path in a home directory on the legacy host (~).
	ShownHome Shown = "home"
)

// Unplaced is why a source has no location on the target host: a fact
// for the rules to judge and word (C2M013), never prose.
type Unplaced struct {
	// Why is the cause.
	Why Why
	// What describes the source: "bind ./data", "named volume \"db\"".
	What string
	// At is where it would land; Root the folder it would lie outside of
	// (WhyOutsideRoot) or the module root with no declaration
	// (WhyRootUndeclared, WhyRootHost); Other what lands at At too (WhyCollision).
	At, Root, Other string
	// Holder is, for WhyInsideUnplaced, the key of the bind it lies in,
	// and HolderWhy why that one has no place.
	Holder    string
	HolderWhy *Unplaced
}

// Why is the cause of an Unplaced.
type Why string

// The causes of Unplaced.
const (
	// WhyHome: a bind source under ~, the legacy host's home.
	WhyHome Why = "home"
	// WhyNoHostProjectDirectory: a relative bind source, with
	// host_project_directory unset. One cause shared by every such source.
	WhyNoHostProjectDirectory Why = "host_project_directory"
	// WhyNoVolumeRoot: a named or anonymous volume, with volume_root
	// unset. One cause shared by every such volume.
	WhyNoVolumeRoot Why = "volume_root"
	// WhyOutsideRoot: it would land at At, outside Root (VOLUME_ROOT/MODULE).
	WhyOutsideRoot Why = "outside"
	// WhyNoIntent: layout fhs places by intent, and it has none.
	WhyNoIntent Why = "no intent"
	// WhyNoName: layout fhs cannot name it from its source.
	WhyNoName Why = "no name"
	// WhyCollision: layout fhs would land it at At, where Other lands.
	WhyCollision Why = "collision"
	// WhyRootUndeclared: layout fhs places it at At in its module root
	// Root, which has no declaration.
	WhyRootUndeclared Why = "root undeclared"
	// WhyRootHost: layout fhs places it at At in its module root Root,
	// which the declarations say is kind host: not the module's to own.
	WhyRootHost Why = "root host"
	// WhyInsideUnplaced: it lies inside bind Holder, which layout fhs
	// cannot place (HolderWhy).
	WhyInsideUnplaced Why = "inside"
	// WhyInvalidPath: it would land at At, which is no absolute, clean
	// host path of printable characters.
	WhyInvalidPath Why = "invalid path"
)

// First returns the mount it is reported at.
func (p *Placement) First() project.Mount { return p.Mounts[0] }

// Services returns the names of the services mounting it, sorted, unique.
func (p *Placement) Services() []string {
	var out []string
	for _, m := range p.Mounts {
		out = append(out, m.Service)
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// Field is a compose field the manifest's container shape does not carry.
type Field struct {
	// Service is the service that writes it; "" for a field of a
	// top-level entry.
	Service string
	// Section and Entry name the top-level entry (volumes, data) for a
	// field of one; "" for a service's field.
	Section, Entry string
	// Name is the field, dotted when nested: "deploy.placement"; "" when
	// the whole entry is not carried (a job).
	Name string
	// Config names the file config whose uid, gid or mode are not carried
	// (Name is then "configs"); "" otherwise.
	Config string
	// Reason says why it is not carried.
	Reason string
	// Acknowledged reports whether the declarations' acknowledge: names it.
	Acknowledged bool
	Pos          manifest.Pos
}

// AckItem returns the acknowledge: item that leaves f behind knowingly:
// SERVICE.FIELD, SERVICE.configs for a file config's uid, gid or mode,
// SECTION.ENTRY.FIELD for a field of a top-level entry, or SECTION.ENTRY
// for a whole entry (jobs.NAME).
func (f Field) AckItem() string {
	switch {
	case f.Service != "" && f.Config != "":
		return f.Service + ".configs"
	case f.Service != "":
		return f.Service + "." + f.Name
	case f.Name == "":
		return f.Section + "." + f.Entry
	}
	return f.Section + "." + f.Entry + "." + f.Name
}

// What an Unmatched item is.
const (
	UnmatchedKey         = "key"         // a binds:, volumes: or anonymous: key
	UnmatchedAcknowledge = "acknowledge" // an acknowledge: item
	UnmatchedImage       = "images"      // an images: entry
	// UnmatchedTmpfs is a volumes: key naming a volume the local driver
	// makes a tmpfs (driver_opts type: tmpfs): it is mounted as a tmpfs,
	// which has no host path to declare.
	UnmatchedTmpfs = "tmpfs"
	// UnmatchedUncarried is a binds: or volumes: key naming what only
	// jobs or pre_start hooks mount (Mounters), which the manifest does
	// not carry.
	UnmatchedUncarried = "uncarried"
	// UnmatchedSurvey is an entry of the legacy host's survey (Section
	// and Item its key) naming no source the project mounts.
	UnmatchedSurvey = "survey"
	// UnmatchedBindVolume is a volumes: key naming a volume whose
	// driver_opts make it a local bind of a host path (Device, its key
	// under binds: BindKey): the bind is declared under binds:, by that
	// path.
	UnmatchedBindVolume = "bind-volume"
)

// Unmatched is a declaration item, or an entry of the legacy host's
// survey, that matches nothing in the compose project, across all
// profiles.
type Unmatched struct {
	// What is UnmatchedKey, UnmatchedAcknowledge, UnmatchedImage,
	// UnmatchedTmpfs, UnmatchedUncarried, UnmatchedSurvey or
	// UnmatchedBindVolume.
	What string
	// Section is the declarations section of a key.
	Section string
	// Item is the item as written: the key, the acknowledge item, the
	// service of an images: entry.
	Item string
	// Mounters name, for UnmatchedUncarried, what mounts it: "job
	// backup", `the pre_start hooks of service "app"`.
	Mounters []string
	// Found says, for UnmatchedSurvey, what the survey found there ("a
	// directory at /opt/app/old on old-nas"); "" when it found nothing.
	Found string
	// Device and BindKey are, for UnmatchedBindVolume, the volume's
	// device as the compose file writes it and its key under binds:.
	Device, BindKey string
	Pos             manifest.Pos
}
