package convert

import (
	"path"
	"sort"
	"strings"

	"github.com/compose2manifest/compose2manifest/declare"
	"github.com/compose2manifest/compose2manifest/manifest"
	"github.com/compose2manifest/compose2manifest/placement"
	"github.com/compose2manifest/compose2manifest/project"
	"github.com/compose2manifest/compose2manifest/rules"
)

// Missing describes one source whose declaration is missing or incomplete:
// what the author must still say, and everything known about it.
type Missing struct {
	// Section and Key name the declaration: declare.SectionBinds with the
	// source as a key, SectionVolumes with the volume name, or
	// SectionAnonymous with "SERVICE:TARGET".
	Section, Key string
	// Source is the source as the compose file writes it ("" for an
	// anonymous volume).
	Source string
	// Kind is how the mount was classified.
	Kind project.MountKind
	// Mounts lists every service mounting it, in order.
	Mounts []Mount
	// Legacy is where the data lives under Docker today: the Docker volume
	// name of a named volume, "" for a bind.
	Legacy string
	// Supplied reports whether the declarations already have an entry.
	Supplied bool
	// Known holds the values known so far, supplied or produced.
	Known declare.Entry
	// NeedsPath reports whether the source can only be placed by a
	// declared path (a ~ bind, or a source layout fhs would land where
	// another source did).
	NeedsPath bool
	// NotOwnable says why the module may not own the absolute bind source
	// where it is (rules.Ownable, C2M006): it needs a path of its own, or
	// kind: host alone. "" otherwise.
	NotOwnable string
	// NeedsKind reports that the author must choose kind: file or kind:
	// directory: the bind source is not in the checkout and looks like a
	// file (placement.Placement.KindUnknown, C2M004).
	NeedsKind bool
	// LinkOutside says, for a bind source that is a symbolic link out of
	// the project, which link and where (placement.Placement.LinkOutside,
	// C2M013): it needs kind: host or its own path. "" otherwise.
	LinkOutside string
	// NeedsHostProjectDirectory and NeedsVolumeRoot report whether the
	// source is placed by those settings and they are unset.
	NeedsHostProjectDirectory, NeedsVolumeRoot bool
	// NeedsEntry reports that the source exists only once declared: a
	// VOLUME the image declares that no volume mounts (C2M024). Its entry
	// is offered even when every value is known.
	NeedsEntry bool
	// Moves says why the data of a bind source must move before the
	// module owns it: a ~ bind (the legacy host's home), or an absolute
	// one the module may not own where it is (rules.Ownable). Its entry
	// is offered, prefilled with what was produced, even when every value
	// is known: under layout fhs the entry alone gives it a place by its
	// intent; otherwise it needs a path (NeedsPath, NotOwnable). "" once
	// the declarations have an entry for it, and otherwise.
	Moves string
	// KeepRoot is, for an absolute bind source outside every place a
	// module may own, a directory that a roots: entry could name so that
	// the module owns the source where it is and its data stays: the
	// folder named after the module on the source's path, or the source
	// itself. "" when no such root is valid (under /usr, a home, …).
	KeepRoot string
	// OwnerFrom is the evidence the known owner was produced from when
	// that is a service's owner-changing variables, not an image table
	// row's default nor a user: ("service \"git\" environment
	// USER_UID=1001 (…)"); "" otherwise.
	OwnerFrom string
	// Evidence says, for a source nothing declares, where each value
	// known so far was produced from, as the manifest's comment would
	// ("owner produced: service \"db\" user: 70:70"): what the skeleton
	// says beside the values it prefills. Nil when nothing was produced.
	Evidence []string
	// Inside is, for a bind inside another bind of the project, that
	// bind's key: it lands inside that one's place, and needs no path of
	// its own. "" otherwise.
	Inside string
	// Local is, for a bind, what its source is in the project directory
	// on this machine (project.Evidence): file or directory with links
	// inside the project followed, absent, or a link out of it. The zero
	// value for other sections.
	Local project.SourceEvidence
	// LooksLikeFile names, for a bind source written without a trailing
	// slash, what looks like a file (project.LooksLikeFile), as C2M004
	// judges it: "its name app.conf", else "its target
	// /etc/app/config.yml"; "" when nothing does.
	LooksLikeFile string
	// SharedWith names, for an absolute bind source with nothing
	// supplied, the other projects of a batch that mount it or a path
	// inside it (Result.OfferShared): Known is then kind: host, offered
	// for a person to accept, since data several modules share is owned
	// by none of them, or by one the person chooses (C2M005). Nil
	// otherwise.
	SharedWith []string
	// OwnedBy names, for a named volume with nothing supplied whose
	// Docker volume another module of a batch owns a copy of, that
	// project and the copy's path, "FOLDER (PATH)" (Result.OfferShared):
	// Known is then kind: host at that path, offered for a person to
	// accept. "" otherwise.
	OwnedBy string
	// HeldBy names, for a source whose data moves (Moves), the other
	// projects of a batch that mount a path above it, each as "FOLDER
	// (PATH)": moving the data takes it from under their mounts. Nil
	// otherwise.
	HeldBy []string
	// WellKnownHost reports that an absolute bind source is a well-known
	// host path a module uses and does not own (project.WellKnownHost:
	// /etc/localtime, the docker socket, /proc...).
	WellKnownHost bool
	// RefusedMode is, when evidence found a mode nobody should choose
	// (a world-writable one on the legacy host, the image's 1777), what
	// it found and the fix suggested: never carried, for a person to
	// accept. Nil otherwise.
	RefusedMode *RefusedMode
	// NoOwner says why evidence gave no owner (two image table rows
	// disagree, a user: the table cannot map); OutOfVersion why the image
	// table has no row for the image's version. "" otherwise.
	NoOwner, OutOfVersion string
	// Reason says what is missing, for people.
	Reason string
}

// RefusedMode is a mode evidence found and did not carry.
type RefusedMode struct {
	// Found is the mode ("0777"), From the evidence ("survey old-nas
	// 2026-12-02T15:20:00Z"), Why why nobody should choose it.
	Found, From, Why string
	// Suggest is Found without what makes it so ("0775"): a suggestion,
	// not evidence.
	Suggest string
}

// Mount is one service's use of a source.
type Mount struct {
	Service, Image, Target string
	ReadOnly               bool
	// Pos is the volume's line in the compose file.
	Pos manifest.Pos
}

// missingList returns the structured form of the sources c could not
// declare, in the order they were found.
func (c *converter) missingList() []Missing {
	var out []Missing
	for _, m := range c.missing {
		if c.carriesSecret(m.src.Key) {
			// A source named with a secret's value (./d/${API_TOKEN})
			// cannot be declared without writing the value into the
			// declarations: C2M015 says so, and nothing is offered.
			continue
		}
		out = append(out, c.missingOf(m))
	}
	return out
}

// missingOf is the Missing of one source convert could not declare: what
// is known of it, and what it still needs.
func (c *converter) missingOf(m *missing) Missing {
	first := m.src.First()
	x := Missing{
		Section:      m.src.Section,
		Key:          m.src.Key,
		Source:       first.Display(),
		Kind:         first.Kind,
		Supplied:     m.src.Entry != nil,
		Known:        m.entry,
		Reason:       m.reason,
		NoOwner:      m.noOwner,
		OutOfVersion: m.outOfVersion,
		NeedsKind:    m.src.KindUnknown != nil,
		LinkOutside:  m.src.LinkOutside,
		NeedsEntry:   m.imageVolume,
	}
	if m.src.Entry != nil {
		x.Key = m.src.Entry.Key
	}
	if m.src.Section == declare.SectionBinds {
		x.Local = project.Evidence(c.l.Dir, x.Key)
		x.WellKnownHost = strings.HasPrefix(x.Key, "/") && project.WellKnownHost(path.Clean(x.Key))
		x.LooksLikeFile = looksLikeFile(x.Source, x.Key, m.src.Mounts)
	}
	if x.Known.Key == "" {
		x.Known.Key = x.Key
	}
	if m.src.Section == declare.SectionVolumes {
		x.Legacy = c.maskSecrets(c.dockerVolumeName(first.Volume))
	}
	if m.entry.Path == "" && c.needsPath[m.src] {
		x.NeedsPath = true // layout fhs cannot place it where it would land
	}
	if h := c.holdingBind(m.src); h != nil && m.entry.Path == "" {
		x.Inside = h.Key
	}
	x.OwnerFrom = c.maskSecrets(c.ownerFrom[m.src])
	for _, e := range m.evidence {
		x.Evidence = append(x.Evidence, c.maskSecrets(e))
	}
	if rm, ok := c.refusedModes[m.src]; ok && x.Known.Mode == "" {
		x.RefusedMode = &rm
	}
	if m.src.Entry == nil && x.Inside == "" && m.src.Section == declare.SectionBinds {
		// Once declared, the entry is the person's answer: a path,
		// or layout fhs's place for it.
		x.Moves = c.moves(m.src)
		if x.Moves != "" && strings.HasPrefix(m.src.Key, "/") {
			x.KeepRoot = keepRoot(m.src.Key, c.module, x.LooksLikeFile != "" || x.Known.Kind == declare.KindFile)
		}
	}
	if m.entry.Path == "" && c.layout == "" && x.Inside == "" {
		c.locationNeeds(&x, m)
	}
	for _, mt := range m.src.Mounts {
		img := ""
		if svc, ok := c.l.Compose.Services[mt.Service]; ok {
			img = svc.Image
		}
		x.Mounts = append(x.Mounts, Mount{Service: mt.Service, Image: img, Target: mt.Target, ReadOnly: mt.ReadOnly, Pos: mt.Pos})
	}
	sort.SliceStable(x.Mounts, func(i, j int) bool { return x.Mounts[i].Service < x.Mounts[j].Service })
	return x
}

// locationNeeds says what a source without a path and without layout
// fhs needs for a location: a path (a ~ bind), a path or kind host (an
// absolute one the module may not own), host_project_directory or
// volume_root.
func (c *converter) locationNeeds(x *Missing, m *missing) {
	switch {
	case m.src.Section == declare.SectionBinds && strings.HasPrefix(m.src.Key, "~"):
		x.NeedsPath = true
	case m.src.Section == declare.SectionBinds && strings.HasPrefix(m.src.Key, "/") && m.entry.Kind != declare.KindHost:
		// An absolute source the module may not own (/etc/pihole):
		// declared as it is, C2M006 refuses it; it needs a path of
		// its own (its data moves, by plan) or kind: host.
		var roots []string
		for _, r := range c.roots() {
			roots = append(roots, r.Path)
		}
		if why, ok := rules.Ownable(m.src.Key, c.module, roots); !ok {
			x.NotOwnable = why
		}
	case m.src.Section == declare.SectionBinds && !strings.HasPrefix(m.src.Key, "/"):
		x.NeedsHostProjectDirectory = c.hostDir == ""
	case m.src.Section != declare.SectionBinds:
		x.NeedsVolumeRoot = c.volumeRoot == ""
	}
}

// Complete reports whether the known values give owner, mode and intent
// (or the kind is host), so only a location is missing. A source whose
// kind the author must choose (NeedsKind), or a link out of the project,
// is never complete.
func (m *Missing) Complete() bool {
	e := m.Known
	if m.NeedsKind || m.LinkOutside != "" || m.NotOwnable != "" {
		return false
	}
	return e.Kind == declare.KindHost || (e.Owner != "" && e.Mode != "" && e.Intent != "")
}

// OnlyLocation reports whether every value of the source is known (or it
// is a host path) and only its location is missing: a setting,
// host_project_directory or volume_root. The skeleton writes no entry for
// such a source, only the setting, and ask says it needs a location.
func (m *Missing) OnlyLocation() bool {
	return !m.NeedsPath && !m.NeedsEntry && m.Moves == "" && m.OwnedBy == "" && m.Complete()
}

// A Need is one field of a source's declaration entry: the value known so
// far, and whether the entry must hold it. The skeleton writes a field
// that is Known or Required ("" to fill in), ask asks each field the
// declarations do not supply, in its own order.
type Need struct {
	// Field is declare.FieldKind, FieldPath, FieldOwner, FieldMode,
	// FieldIntent or FieldNote.
	Field string
	// Known is the value known so far, supplied or produced; "" for none.
	Known string
	// Required reports that the entry must give the field: a kind the
	// checkout cannot tell (NeedsKind), a path nothing else gives
	// (NeedsPath, LinkOutside, NotOwnable), and owner, mode and intent of
	// a path the module owns.
	Required bool
}

// Needs lists the fields of m's entry as convert knows it, in the order an
// entry writes them: NeedsAs(m.Known.Kind).
func (m *Missing) Needs() []Need { return m.NeedsAs(m.Known.Kind) }

// NeedsAs lists the fields of m's entry declared with kind: kind (of a
// bind, or where one is known), path, owner, mode and intent (none of
// them for a host path, which the module does not own) and note.
func (m *Missing) NeedsAs(kind declare.Kind) []Need {
	e := m.Known
	var out []Need
	if m.Section == declare.SectionBinds || e.Kind != declare.KindNone {
		out = append(out, Need{Field: declare.FieldKind, Known: string(e.Kind), Required: m.NeedsKind})
	}
	// A host path is used where it is: it needs no path of its own for
	// being one the module may not own, or outside the checkout.
	out = append(out, Need{Field: declare.FieldPath, Known: e.Path, Required: m.NeedsPath || kind != declare.KindHost && (m.LinkOutside != "" || m.NotOwnable != "")})
	if kind != declare.KindHost {
		out = append(out,
			Need{Field: declare.FieldOwner, Known: e.Owner, Required: true},
			Need{Field: declare.FieldMode, Known: e.Mode, Required: true},
			Need{Field: declare.FieldIntent, Known: e.Intent, Required: true})
	}
	return append(out, Need{Field: declare.FieldNote, Known: e.Note})
}

// Need returns the need for field of m's entry declared with kind, and
// whether the entry has that field.
func (m *Missing) Need(kind declare.Kind, field string) (Need, bool) {
	for _, n := range m.NeedsAs(kind) {
		if n.Field == field {
			return n, true
		}
	}
	return Need{}, false
}

// looksLikeFile names what of a bind source looks like a file: its name,
// else one of its mounts' targets; "" when nothing does, or the compose
// file writes it with a trailing slash (a directory).
func looksLikeFile(source, key string, mounts []project.Mount) string {
	switch {
	case strings.HasSuffix(source, "/"):
		return ""
	case project.LooksLikeFile(key):
		return "its name " + path.Base(key)
	}
	for _, mt := range mounts {
		if project.LooksLikeFile(mt.Target) {
			return "its target " + mt.Target
		}
	}
	return ""
}

// moves says why the data of bind source s must move before the module
// owns it (Missing.Moves), or "".
func (c *converter) moves(s *placement.Placement) string {
	switch {
	case strings.HasPrefix(s.Key, "~"):
		return "~ is the legacy host's home, so its data moves"
	case !strings.HasPrefix(s.Key, "/"):
		return ""
	}
	var roots []string
	for _, r := range c.roots() {
		roots = append(roots, r.Path)
	}
	if why, ok := rules.Ownable(s.Key, c.module, roots); !ok {
		return "the module may not own it there (" + why + "), so its data moves"
	}
	return ""
}

// keepRoot returns the directory a roots: entry could name so that a
// module owns the absolute path p where it is: the nearest folder on p's
// path named after the module (/mnt/docker-volumes/app for
// /mnt/docker-volumes/app/db in module app), or else p itself, unless p
// is (or looks like) a file, which no root names: a folder of the module's
// holds it; "" when that is no valid root (rules.Root) or p is ownable
// only elsewhere.
func keepRoot(p, module string, file bool) string {
	if why, ok := rules.Ownable(p, module, nil); ok || why != rules.Outside {
		return ""
	}
	for d := p; d != "/" && d != "."; d = path.Dir(d) {
		if path.Base(d) == module {
			if _, ok := rules.Root(d); ok {
				return d
			}
			break
		}
	}
	if _, ok := rules.Root(p); ok && !file {
		return p
	}
	return ""
}

// IntentHint suggests an intent for a source from its mounts, with the
// reason: a target under a directory whose use is a convention
// (/var/log, /var/cache, /var/lib, /etc, /run, /srv, nginx's web root),
// else a target named after its use (.../cache, .../logs; not
// .../config, which often holds a database), else config where every
// mount is read-only. A hint from a
// name, never evidence (Home Assistant's /config holds its database):
// ask offers it, the skeleton's comment names it, and neither writes it
// unless a person accepts it. "" when nothing suggests one.
//
// A source whose key (as the compose file writes it) or target names a
// secret (project.SecretFileName: db_password.txt, tls.key, id_rsa; or a
// target under /run/secrets) suggests state before anything else: a
// secret is state with a strict mode (SPEC section 4), never config,
// which the module's repository would recreate.
func IntentHint(key string, mounts []Mount) (intent, why string) {
	if project.SecretFileName(key) {
		return "state", "its name says it holds a secret, and a secret is state with a strict mode"
	}
	for _, mt := range mounts {
		t := path.Clean(mt.Target)
		if t == "/run/secrets" || strings.HasPrefix(t, "/run/secrets/") || project.SecretFileName(t) {
			return "state", "the target " + mt.Target + " says it holds a secret, and a secret is state with a strict mode"
		}
	}
	under := []struct{ prefix, intent, why string }{
		{"/var/log", "logs", "under /var/log, where logs usually go"},
		{"/var/cache", "cache", "under /var/cache, where rebuildable caches usually go"},
		{"/cache", "cache", "named /cache"},
		{"/var/lib", "state", "under /var/lib, where software keeps its state"},
		{"/var/spool", "state", "under /var/spool, where queues and spools usually go"},
		{"/etc", "config", "under /etc, where configuration usually goes"},
		{"/run", "runtime", "under /run, where sockets and pid files usually go"},
		{"/var/run", "runtime", "under /var/run, where sockets and pid files usually go"},
		{"/srv", "content", "under /srv, where served content usually goes"},
		{"/var/www", "content", "under /var/www, where web roots usually go"},
		{"/usr/share/nginx/html", "content", "nginx's web root"},
	}
	for _, mt := range mounts {
		t := path.Clean(mt.Target)
		for _, h := range under {
			if t == h.prefix || strings.HasPrefix(t, h.prefix+"/") {
				return h.intent, "the target " + mt.Target + " is " + h.why
			}
		}
	}
	// A target named config or conf suggests nothing: such a folder
	// often holds the software's database too (Home Assistant's,
	// linuxserver.io's /config), which SPEC section 4 calls state, and
	// config is not backed up.
	named := map[string]string{"cache": "cache", ".cache": "cache", "logs": "logs", "log": "logs"}
	for _, mt := range mounts {
		if intent, ok := named[path.Base(path.Clean(mt.Target))]; ok {
			return intent, "the target " + mt.Target + " is named " + path.Base(path.Clean(mt.Target))
		}
	}
	ro := len(mounts) > 0
	for _, mt := range mounts {
		ro = ro && mt.ReadOnly
	}
	if ro {
		return "config", "every mount is read-only, so the software only reads it"
	}
	return "", ""
}
