package rules

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/compose2manifest/compose2manifest/declare"
	"github.com/compose2manifest/compose2manifest/images"
	"github.com/compose2manifest/compose2manifest/manifest"
)

// ackMode is the note convert writes in a declaration's comment when the
// declarations acknowledge its mode (acknowledge_mode: true).
const ackMode = "acknowledged: mode "

// AckModeNote is the declaration comment's note that its mode was chosen
// knowingly (acknowledge_mode: true).
func AckModeNote(mode string) string { return ackMode + mode }

// UnsafeMode says why mode, of a directory or file of kind, is one
// nobody should choose, or "": a directory writable by everyone without
// the sticky bit (anyone may delete or replace what others put there;
// 1777, as /tmp has, is a shared drop box), a directory without its
// owner's search bit (0640: the owner cannot enter it), a file writable
// by everyone, or a file with setuid or setgid (run with the owner's
// rights). It is the one judge of modes: of a declared mode (C2M021,
// refused unless acknowledge_mode: true) and of one evidence found (a
// survey, an image's layers), which convert then does not carry.
func UnsafeMode(kind manifest.Kind, mode string) string {
	n, ok := parseMode(mode)
	if !ok {
		return ""
	}
	switch {
	case kind == manifest.KindDirectory && n&0o002 != 0 && n&0o1000 == 0:
		return "writable by everyone without the sticky bit: anyone on the host may delete or replace what the module keeps there"
	case kind == manifest.KindDirectory && n&0o100 == 0:
		return fmt.Sprintf("a directory its owner cannot enter: without the search bit (x) the owner, and software running as the owner, may list its names but open nothing in it; for a directory write mode %s (x with r), and if the path is a file, declare kind: file", SaferMode(kind, mode))
	case kind == manifest.KindFile && n&0o002 != 0:
		return "a file writable by everyone: anyone on the host may change what the module reads"
	case kind == manifest.KindFile && n&0o6000 != 0:
		return "a file with setuid or setgid: whoever runs it gets its owner's or group's rights"
	}
	return ""
}

// SaferMode returns mode with what makes UnsafeMode refuse it taken out,
// as four octal digits: everyone's write bit cleared (where a directory
// has no sticky bit, and on a file), the search bit set on a directory
// wherever it gives read and for its owner, setuid and setgid cleared on
// a file. A mode UnsafeMode accepts is returned as four digits; one that
// is not a mode, "".
func SaferMode(kind manifest.Kind, mode string) string {
	n, ok := parseMode(mode)
	if !ok {
		return ""
	}
	switch kind {
	case manifest.KindDirectory:
		if n&0o1000 == 0 {
			n &^= 0o002
		}
		n |= 0o100 | (n&0o044)>>2
	case manifest.KindFile:
		n &^= 0o6002
	}
	return fmt.Sprintf("%04o", n)
}

// parseMode reads a mode as the manifest writes it (3 or 4 octal
// digits).
func parseMode(mode string) (uint64, bool) {
	if !manifest.ValidMode(mode) {
		return 0, false
	}
	n, err := strconv.ParseUint(mode, 8, 32)
	return n, err == nil
}

// checkUnsafeMode is C2M021.
func checkUnsafeMode(p *Pass) {
	for _, r := range p.Module.Declared() {
		if r.Kind == manifest.KindHost {
			continue
		}
		why := UnsafeMode(r.Kind, r.Mode)
		if why == "" {
			continue
		}
		if hasNote(r.Comment, AckModeNote(r.Mode)) {
			d := Diag(r, "%s %s: mode %s is %s; acknowledged", r.Kind, r.Path, r.Mode, why)
			d.Severity, d.Acknowledged = Warning, true
			p.Report(d)
			continue
		}
		p.Report(Diag(r, "%s %s: mode %s is %s", r.Kind, r.Path, r.Mode, why))
	}
}

// checkImageRequirement is C2M023: a declared path a container mounts
// where the image table has a row with a required mode, whose declared
// mode the software does not accept or whose owner is not the user the
// image's process runs as. The row is found from the container's image
// and the mount's target, not from the declaration's comment; for a tag
// past the row's major version or naming none (postgres:latest), only
// an owner that holds in every version (images.Table.OwnerOutOfVersion)
// is held.
func checkImageRequirement(p *Pass) {
	table, err := images.Default()
	if err != nil {
		// Cannot happen with the embedded table (images.TestLoadFresh);
		// if it does, the rule says it checked nothing.
		p.Report(Diagnostic{Message: "the built-in image table does not load, so no mode or owner was held against it: " + err.Error()})
		return
	}
	declared := map[string]*manifest.Resource{}
	for _, r := range p.Module.Declared() {
		declared[r.Path] = r
	}
	for _, c := range p.Module.Containers() {
		for _, v := range c.Container.Volumes {
			r := declared[v.Source]
			if r == nil || r.Kind == manifest.KindHost {
				continue
			}
			// At the path the container's environment names (PGDATA) too.
			row, ok := table.MatchFor(c.Container.Image, v.Target, containerEnv(c.Container))
			// A tag past the row's major version, or naming none, is
			// held to the row's owner where that holds in every version.
			everyVersion := false
			if !ok {
				row, ok = table.OwnerOutOfVersion(c.Container.Image, v.Target)
				everyVersion = ok
			}
			if !ok || row.ModeBasis != images.ModeRequired || row.Mode == "" {
				continue
			}
			where := fmt.Sprintf("image %s (%s:%d, %s)", row.Repository, images.TableFile, row.Line, row.Source)
			if row.At != "" {
				where = fmt.Sprintf("image %s at %s (%s:%d, %s)", row.Repository, row.At, images.TableFile, row.Line, row.Source)
			}
			if everyVersion {
				where = fmt.Sprintf("image %s in every version (%s:%d, %s)", row.Repository, images.TableFile, row.Line, row.Source)
			}
			if manifest.ValidMode(r.Mode) && !row.Accepts(r.Mode) && !everyVersion {
				modes := strings.Join(append([]string{row.Mode}, row.AcceptedModes...), " or ")
				d := Diag(r, "%s %s is mounted at %s by container %s, and %s requires mode %s there, not %s: the software refuses to run otherwise", r.Kind, r.Path, v.Target, c.Container.Name, where, modes, r.Mode)
				d.Service = c.Container.Name
				p.Report(d)
			}
			runs := row.Owner
			env := containerEnv(c.Container)
			if _, _, changed := row.OwnerChangedBy(env); changed {
				runs = "" // the path's owner is the variable's: not known
			}
			if c.Container.User == "" && runs != "" {
				// The owner-changing variables the image documents
				// (USER_UID, PUID) remap its user.
				if owner, _, set, ok, err := table.RunAs(c.Container.Image, env); ok && err == nil {
					runs = owner
					where += " with " + strings.Join(set, ", ")
				} else if ok {
					runs = "" // not known: no owner held against it
				}
			}
			other := otherUser(c.Container.User, runs)
			consequence := "the software refuses a data directory it does not own"
			if other && RootUser(c.Container.User) {
				// Started as root, some entrypoints make the data
				// directories the image's user's and run as it.
				if sd, ok := table.StepsDown(c.Container.Image, c.Container.Command, c.Container.Entrypoint != nil); ok {
					other = false
					where += fmt.Sprintf(" (started as root, its entrypoint runs as the image's own user: %s:%d)", images.TableFile, sd.Line)
					consequence = "started as root, its entrypoint makes the directory the image's user's, so the declared owner would not last"

				}
			}
			if runs != "" && manifest.ValidOwner(r.Owner) && r.Owner != runs && NumericOwner(r.Owner) && !other {
				d := Diag(r, "%s %s is mounted at %s by container %s, whose %s runs as %s, not %s: %s", r.Kind, r.Path, v.Target, c.Container.Name, where, runs, r.Owner, consequence)
				d.Service = c.Container.Name
				p.Report(d)
			}
		}
	}
}

// NumericOwner reports whether owner is "UID:GID" with both parts
// numeric ids (manifest.ValidID), such as an image config's User "70:70".
func NumericOwner(owner string) bool {
	u, g, ok := strings.Cut(owner, ":")
	return ok && manifest.ValidID(u) && manifest.ValidID(g)
}

// RootUser reports whether a service's or container's user: starts its
// process as root: uid 0 or the name root, with or without a group, or an
// empty user before a ':' (":" and ":1000", which docker runs as uid 0).
// "" is not: no user: runs as the image's.
func RootUser(user string) bool {
	uid, _, hasGroup := strings.Cut(user, ":")
	return uid == "0" || uid == "root" || (uid == "" && hasGroup)
}

// otherUser reports whether a container's user: runs its process as
// someone other than owner's uid: the image's user is not who writes.
func otherUser(user, owner string) bool {
	if user == "" {
		return false
	}
	uid, _, _ := strings.Cut(user, ":")
	ouid, _, _ := strings.Cut(owner, ":")
	return uid != ouid
}

// checkImageVolumeManifest is C2M024 in a manifest: a container whose
// image declares a VOLUME (the image table's volumes: rows) that no
// volume or tmpfs of the container mounts at exactly that path. check
// finds the rows itself from the container's image, as convert does from
// the service's.
func checkImageVolumeManifest(p *Pass) {
	table, err := images.Default()
	if err != nil {
		p.Report(Diagnostic{Message: "the built-in image table does not load, so no image VOLUME was looked for: " + err.Error()})
		return
	}
	for _, c := range p.Module.Containers() {
		mounted := map[string]bool{}
		for _, v := range c.Container.Volumes {
			mounted[v.Target] = true
		}
		for _, t := range c.Container.Tmpfs {
			mounted[t.Target] = true
		}
		for _, v := range table.Volumes(c.Container.Image) {
			if mounted[v.Path] {
				continue
			}
			what := "declares"
			if v.Unversioned {
				what = "names no major version, and some versions declare"
			}
			d := Diag(c, "image %s %s VOLUME %s (%s:%d, %s) and no volume or tmpfs of the container mounts it: the runtime would create an anonymous volume there, data outside every declaration; convert again with it declared under anonymous: (%q) or acknowledged disposable (%s.volumes.%s.disposable)",
				c.Container.Image, what, v.Path, images.TableFile, v.Row.Line, v.Row.Source, declare.AnonymousKey(c.Container.Name, v.Path), c.Container.Name, v.Path)
			d.Service, d.Target = c.Container.Name, v.Path
			p.Report(d)
		}
	}
}

// containerEnv returns the lookup of a container's environment, as the
// image table's variables are read.
func containerEnv(c *manifest.Container) func(string) (string, bool) {
	return func(k string) (string, bool) { v, ok := c.Environment[k]; return v, ok }
}
