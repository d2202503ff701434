package convert

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/compose2manifest/compose2manifest/declare"
	"github.com/compose2manifest/compose2manifest/imageconfig"
	"github.com/compose2manifest/compose2manifest/manifest"
	"github.com/compose2manifest/compose2manifest/placement"
	"github.com/compose2manifest/compose2manifest/project"
	"github.com/compose2manifest/compose2manifest/rules"
	"github.com/compose2manifest/compose2manifest/survey"
)

// LockPath returns the image lock (imageconfig.LockFile) of the project
// in dir converted with opts: beside its declarations file, the one
// opts names (relative to opts.WorkingDirectory) or the default one in
// dir.
func LockPath(opts Options, dir string) string {
	p := opts.DeclarationsFile
	if opts.Declarations != nil && opts.Declarations.Path != "" {
		p = opts.Declarations.Path
	}
	if p == "" {
		return filepath.Join(dir, imageconfig.LockFile)
	}
	return filepath.Join(filepath.Dir(opts.abs(p)), imageconfig.LockFile)
}

// readLock reads the image lock of the project l (LockPath): nil when
// there is none or opts.SkipImageLock. The lock in the project directory
// (beside the default declarations file) is one the project brings: it
// is read only inside the project, as that file is.
func readLock(l *project.Project, opts Options) (*imageconfig.Lock, *inputFile, error) {
	if opts.SkipImageLock {
		return nil, nil, nil
	}
	p := LockPath(opts, l.Dir)
	if _, err := os.Lstat(p); errors.Is(err, os.ErrNotExist) {
		return nil, nil, nil
	} else if err != nil {
		return nil, nil, fmt.Errorf("image lock %s: %w", l.Rel(p), err)
	}
	if p == filepath.Join(l.Dir, imageconfig.LockFile) {
		if err := project.CheckContained("image lock", p, append([]string{l.Dir}, opts.AllowDirs...)...); err != nil {
			return nil, nil, err
		}
	}
	lock, data, err := imageconfig.ReadLock(l.Rel(p), p)
	if err != nil || lock == nil {
		return nil, nil, err
	}
	return lock, &inputFile{p, data}, nil
}

// lockHolds reports whether the image lock of the project in dir is as
// the manifest m records it: absent, and not among m's sources, or
// present and recorded (Reproduces compares its sha256).
func lockHolds(dir string, m *manifest.Module, opts Options) bool {
	if opts.SkipImageLock {
		return true
	}
	p := LockPath(opts, dir)
	rel := project.RelTo(dir, p)
	recorded := slices.ContainsFunc(m.Sources, func(s manifest.Source) bool { return s.File == rel })
	_, err := os.Lstat(p)
	return recorded == (err == nil)
}

// lockEntry returns the image config of the image of service
// (imageEntry), nil when nothing read it.
func (c *converter) lockEntry(service string) *imageconfig.Entry {
	ref := ""
	if svc, ok := c.l.Compose.Services[service]; ok {
		ref = svc.Image
	}
	if ref == "" {
		ref, _ = c.decl.ImageFor(service)
	}
	return c.imageEntry(ref)
}

// imageEntry returns the config of the image ref as it was read: the
// image lock's entry, else what the legacy host's survey recorded of it
// (docker image inspect: its ID, User and Volumes, no layers), made
// once into an entry whose Origin names the survey; nil when neither
// has the image, or the survey did not find it on the host.
func (c *converter) imageEntry(ref string) *imageconfig.Entry {
	if e := c.lock.Entry(ref); e != nil || c.opts.Survey == nil || ref == "" {
		return e
	}
	if e, ok := c.surveyImages[ref]; ok {
		return e
	}
	var e *imageconfig.Entry
	if img := c.opts.Survey.Image(ref); img != nil && img.Found {
		vols := slices.Clone(img.Volumes)
		slices.Sort(vols)
		e = &imageconfig.Entry{Image: ref, Config: imageconfig.Config{ID: img.ID, User: img.User, Volumes: slices.Compact(vols)},
			Origin: c.opts.Survey.Provenance() + ", docker image inspect"}
	}
	if c.surveyImages == nil {
		c.surveyImages = map[string]*imageconfig.Entry{}
	}
	c.surveyImages[ref] = e
	return e
}

// lockName is the image lock as a message names it, relative to the
// project directory; "" without a lock (an entry from a survey names
// its own origin).
func (c *converter) lockName() string {
	if c.lockFile == nil {
		return ""
	}
	return c.l.Rel(c.lockFile.path)
}

// configOwner gives r, which nothing else gave an owner, the owner its
// image's config says (User, a numeric UID:GID) where the placement's
// target is a VOLUME path of that config: the image's process writes
// there as that user. Mounts of images whose configs disagree give none.
// Where the image table's row gave the owner (fromTable) and the config
// says another, provenance says so: two sources that disagree are
// shown, not resolved.
func (c *converter) configOwner(s *placement.Placement, r *manifest.Resource, provenance *[]string, fromTable bool) {
	if r.Kind == manifest.KindHost {
		return
	}
	if r.Owner != "" {
		if fromTable {
			for _, m := range s.Mounts {
				if e := c.lockEntry(m.Service); e != nil && slices.Contains(e.Volumes, m.Target) && rules.NumericOwner(e.User) && e.User != r.Owner {
					*provenance = append(*provenance, fmt.Sprintf("%s has User %s", e.Provenance(c.lockName()), e.User))
					c.disagree(s, "owner", r.Owner, e.User, e.Provenance(c.lockName())+", User")
					return
				}
			}
		}
		return
	}
	owner, from := "", ""
	for _, m := range s.Mounts {
		e := c.lockEntry(m.Service)
		if e == nil || !slices.Contains(e.Volumes, m.Target) {
			continue
		}
		if !rules.NumericOwner(e.User) {
			what := "no User (root, unless the entrypoint changes user)"
			if e.User != "" {
				what = fmt.Sprintf("User %q, not a numeric UID:GID", e.User)
			}
			*provenance = append(*provenance, fmt.Sprintf("no owner produced: %s has %s", e.Provenance(c.lockName()), what))
			return
		}
		if owner != "" && owner != e.User {
			*provenance = append(*provenance, fmt.Sprintf("no owner produced: %s has User %s, %s User %s", from, owner, e.Provenance(c.lockName()), e.User))
			return
		}
		owner, from = e.User, e.Provenance(c.lockName())
	}
	if owner != "" {
		r.Owner = owner
		*provenance = append(*provenance, fmt.Sprintf("owner produced: %s, User %s", from, owner))
		c.setFrom(s, "owner", from+", User")
	}
}

// bindConfigOwner gives a bind source r, which nothing else gave an
// owner, the User of its images' configs (the lock) where that is a
// numeric, non-root UID:GID the same for every service mounting it: a
// process started as another user than root cannot change user, so it
// writes the bind as that user, and the host's directory must be its.
// (A named volume's owner is what docker gives it from the image's
// layers, layerValues; a root User may change user in its entrypoint.)
func (c *converter) bindConfigOwner(s *placement.Placement, r *manifest.Resource, provenance *[]string) {
	if r.Owner != "" || r.Kind == manifest.KindHost || s.Section != declare.SectionBinds || !writable(s) {
		return
	}
	owner, from := "", ""
	for _, m := range s.Mounts {
		e := c.lockEntry(m.Service)
		if e == nil || !rules.NumericOwner(e.User) || strings.HasPrefix(e.User, "0:") || (owner != "" && e.User != owner) {
			return
		}
		if owner == "" {
			owner, from = e.User, e.Provenance(c.lockName())
		}
	}
	if owner == "" {
		return
	}
	r.Owner = owner
	*provenance = append(*provenance, fmt.Sprintf("owner produced: %s, User %s (the process writes the bind as it)", from, owner))
	c.setFrom(s, "owner", from+", User")
}

// layerValues fills the owner and mode r still lacks, for a named or
// anonymous volume, with what the image's layers hold at the path its
// containers mount it on (the lock's paths:): docker gives a new volume
// the owner and mode of the image's directory there, and root's 0755
// where the image has none. Every mount must be of an image the lock
// read there, and all must agree; a volume docker does not fill from
// the image (nocopy, external, a driver's) gets nothing. A mode nobody
// should choose (the image's 1777) is not carried, and provenance says
// why; where another source gave another owner or mode, provenance
// says that too: two sources that disagree are shown, not resolved.
func (c *converter) layerValues(s *placement.Placement, r *manifest.Resource, users map[string]string, provenance *[]string) {
	if r.Kind != manifest.KindDirectory || s.Section == declare.SectionBinds || !c.dockerFills(s) {
		return
	}
	var fact *imageconfig.PathFact
	from := ""
	for _, m := range s.Mounts {
		e := c.lockEntry(m.Service)
		if e == nil {
			return
		}
		f := e.Path(m.Target)
		if f == nil || (f.Type != imageconfig.Directory && f.Type != imageconfig.Absent) {
			return
		}
		if fact != nil && (fact.Type != f.Type || fact.Owner != f.Owner || fact.Mode != f.Mode) {
			*provenance = append(*provenance, fmt.Sprintf("no owner or mode from image layers: %s has %s, %s has %s at %s", from, fact, e.Provenance(c.lockName()), f, m.Target))
			return
		}
		// The process runs as the service's user:, else the config's User.
		user, runs := users[m.Service], fmt.Sprintf("service %q runs as user: %s", m.Service, users[m.Service])
		if user == "" {
			user, runs = e.User, fmt.Sprintf("%s runs as User %q", e.Provenance(c.lockName()), e.User)
		}
		if owner := layerOwner(*f); !rootUser(user) && user != owner {
			// The process runs as another user than owns what docker
			// makes: its entrypoint, or a person, changes one of them.
			*provenance = append(*provenance, fmt.Sprintf("no owner or mode from image layers: %s, and a new volume at %s is %s's", runs, m.Target, owner))
			return
		}
		fact, from = f, e.Provenance(c.lockName())
	}
	if fact == nil {
		return
	}
	owner, mode, what := layerOwner(*fact), fact.Mode, fmt.Sprintf("image layers of %s: %s at %s", from, fact, fact.Path)
	if fact.Type == imageconfig.Absent {
		mode = "0755"
		what += ", and docker makes a new volume root's, mode 0755"
	}
	c.fromEvidence(s, r, owner, mode, survey.Directory, what, provenance)
}

// layerOwner is the owner of a new volume docker fills from f: the
// directory's, or root's where the image has none there.
func layerOwner(f imageconfig.PathFact) string {
	if f.Type == imageconfig.Absent {
		return "0:0"
	}
	return f.Owner
}

// rootUser reports whether an image config's User runs its process as
// root: none given, or root by name or uid.
func rootUser(u string) bool {
	name, _, _ := strings.Cut(u, ":")
	return name == "" || name == "root" || name == "0"
}

// dockerFills reports whether docker fills the volume of s from the
// image when it makes it: a volume compose creates with the local
// driver, mounted without nocopy.
func (c *converter) dockerFills(s *placement.Placement) bool {
	for _, m := range s.Mounts {
		if slices.Contains(m.Options, "nocopy") {
			return false
		}
	}
	if s.Section != declare.SectionVolumes {
		return true
	}
	v, ok := c.l.Compose.Volumes[s.First().Volume]
	return ok && !bool(v.External) && (v.Driver == "" || v.Driver == "local") && len(v.DriverOpts) == 0
}
