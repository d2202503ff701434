package convert

import (
	"cmp"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"maps"
	"os"
	"path"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/compose-spec/compose-go/v2/types"
	"github.com/compose2manifest/compose2manifest/declare"
	"github.com/compose2manifest/compose2manifest/images"
	"github.com/compose2manifest/compose2manifest/manifest"
	"github.com/compose2manifest/compose2manifest/placement"
	"github.com/compose2manifest/compose2manifest/project"
	"github.com/compose2manifest/compose2manifest/rules"
)

// DeclarationsFile is the default name of the declarations file, looked
// for in the project directory.
const DeclarationsFile = "compose2manifest.yaml"

// ExtensionKey is the top-level compose extension that may hold the
// declarations inside the compose file itself.
const ExtensionKey = "x-compose2manifest"

// Convert loads the compose project opts names and converts it. A non-nil
// error means the input could not be read (a missing file, a YAML or
// schema error, a bad declarations file); the Result then has Status
// Failed and may still carry diagnostics explaining it, such as unset
// variables (C2M014).
func Convert(ctx context.Context, opts Options) (res *Result, err error) {
	var l *project.Project
	defer func() { describe(res, l) }()
	given := opts // before the declarations fill anything in: converted_with
	if err := checkFlagPath("--host-project-directory", opts.HostProjectDirectory); err != nil {
		return &Result{Status: Failed}, err
	}
	if err := checkFlagPath("--volume-root", opts.VolumeRoot); err != nil {
		return &Result{Status: Failed}, err
	}
	if opts.Layout != "" && !slices.Contains(declare.Layouts, opts.Layout) {
		return &Result{Status: Failed}, fmt.Errorf("--layout %q: want %s", opts.Layout, strings.Join(declare.Layouts, ", "))
	}
	// The declarations file may say how the project is run (its compose
	// files, env files, profiles): read it first, where the caller did
	// not say.
	opts, st, err := withSettings(opts)
	if err != nil {
		return &Result{Status: Failed}, err
	}
	l, err = project.Load(ctx, opts.projectOptions())
	if l != nil {
		opts = st.reuse(opts, l.Dir)
	}
	if err != nil && st.parseErr != nil {
		// The settings the file may give were not read.
		err = errors.Join(st.parseErr, err)
	}
	if err != nil {
		res := &Result{Status: Failed, KnownModule: knownModule(l, opts)}
		if l != nil {
			res.Diagnostics = rules.RunProject(rules.All(), &rules.ProjectPass{Project: l})
		}
		return res, err
	}
	// Should the conversion stop before the services are built, the
	// project-scope rules judge what the reading alone shows.
	early := func() []rules.Diagnostic { return rules.RunProject(rules.All(), &rules.ProjectPass{Project: l}) }
	res = &Result{ProjectDirectory: l.Dir, ProjectName: l.Compose.Name}
	if opts.ProjectName == "" && l.Name() == "" && !l.NameFromEnvironment {
		res.FolderNamed = true
		for _, key := range slices.Sorted(maps.Keys(l.Compose.Volumes)) {
			if v := l.Compose.Volumes[key]; !bool(v.External) && l.TopLevelValue("volumes", key, "name") == "" {
				res.FolderVolumes = append(res.FolderVolumes, l.Compose.Name+"_"+key)
			}
		}
	}
	if len(l.Compose.Services) == 0 {
		res.Status, res.KnownModule = Failed, knownModule(l, opts)
		res.Diagnostics = early()
		return res, noServices(l.Compose)
	}
	decl, declFiles, err := declarations(l, opts)
	if err == nil {
		err = checkSettings(st, l.Dir, declFiles, decl)
	}
	if err != nil {
		res.Status, res.KnownModule = Failed, knownModule(l, opts)
		res.Diagnostics = early()
		return res, err
	}
	// The image table's facts of images as a whole (VAR_FILE, VOLUME)
	// and its required modes hold with --strict too; production from its
	// rows does not. The built-in table is parsed once per process.
	facts := opts.Images
	if facts == nil {
		if facts, err = images.Default(); err != nil {
			res.Status = Failed
			return res, err
		}
	}
	c := &converter{l: l, opts: opts, decl: decl, images: opts.Images, facts: facts, fields: newFieldIndex(),
		match: &matcher{decl: decl, env: l.Environment, used: map[*declare.Entry]bool{}}}
	c.flagsAgainstDefaults(given, st)
	c.module = l.Compose.Name
	if decl != nil && decl.Module != "" {
		c.module = decl.Module
	}
	if !manifest.ValidModule(c.module) {
		res.Status = Failed
		return res, fmt.Errorf("module name %q: want a lowercase letter or digit, then lowercase letters, digits, '.', '_' or '-'", c.module)
	}
	c.hostDir, c.volumeRoot = opts.HostProjectDirectory, opts.VolumeRoot
	if decl != nil {
		if c.hostDir == "" {
			c.hostDir = decl.HostProjectDirectory
		}
		if c.volumeRoot == "" {
			c.volumeRoot = decl.VolumeRoot
		}
	}
	c.layout = opts.Layout
	if c.layout == "" && decl != nil {
		c.layout = decl.Layout
	}
	if err := checkRootSettings(opts, decl); err != nil {
		res.Status = Failed
		return res, err
	}

	m := c.build()
	if c.imagesErr != nil {
		res.Status = Failed
		return res, c.imagesErr
	}
	m.Roots = c.roots()
	c.secretSources()
	c.diags = append(c.diags, rules.RunProject(rules.All(), c.pass())...)
	m.Sources, err = sources(l, declFiles)
	if err != nil {
		res.Status = Failed
		return res, err
	}
	m.Header = fmt.Sprintf("Module manifest generated by compose2manifest from %s — edit the declarations, not this file.",
		path.Join(filepath.Base(l.Dir), l.Rel(l.ConfigFiles[0])))
	c.diags = append(c.diags, rules.Run(builtRules(), m)...)
	res.Diagnostics = sortDiagnostics(c.diags, c.module)
	m.ConvertedWith = RecordedSettings(given, l.Dir)
	if m.Fingerprint, err = c.fingerprint(declFiles, res.Diagnostics); err != nil {
		res.Status = Failed
		return res, err
	}
	res.Missing = c.missingList()
	res.UndeclaredAncestors = rules.UndeclaredAncestors(m)
	res.Suggestions = Suggestions{Secrets: c.secretSuggestions(), Uncarried: c.uncarried, Roots: c.missingRoots, Options: c.optionUses()}
	res.Skeleton = SkeletonFor(c.module, res.Missing, res.Suggestions)
	c.maskResult(res)
	res.Status = Converted
	for _, d := range res.Diagnostics {
		if d.Severity == rules.Error {
			res.Status = Refused
		}
	}
	if res.Status == Refused {
		res.Candidate = m
		return res, nil
	}
	res.Module = m
	res.Manifest, err = manifest.Encode(m)
	if err != nil {
		res.Status, res.Module = Failed, nil
		return res, err
	}
	return res, nil
}

// noServices explains a project in which no service runs.
func noServices(p *types.Project) error {
	if len(p.DisabledServices) == 0 {
		return fmt.Errorf("the project has no services")
	}
	var parts []string
	for _, name := range slices.Sorted(maps.Keys(p.DisabledServices)) {
		parts = append(parts, fmt.Sprintf("%s (profiles: %s)", name, strings.Join(p.DisabledServices[name].Profiles, ", ")))
	}
	return fmt.Errorf("no service runs without a profile; enable some with --profile: %s", strings.Join(parts, "; "))
}

func checkFlagPath(flag, p string) error {
	if p != "" && !manifest.ValidPath(p) {
		return fmt.Errorf("%s %q: want an absolute, clean path (no .., no trailing /)", flag, p)
	}
	if why, ok := rootSetting(flag, p); p != "" && !ok {
		return fmt.Errorf("%s %s is no place for a module's data (%s)", flag, p, why)
	}
	return nil
}

// declarations reads the sidecar file (or takes it from
// opts.Declarations) and the x-compose2manifest extension and merges them.
// It returns the sidecar file read, for the manifest's sources.
func declarations(l *project.Project, opts Options) (*declare.File, []inputFile, error) {
	var ext *declare.File
	for _, x := range l.Extensions(ExtensionKey) {
		d, err := declare.ParseNode(x.File, x.Node)
		if err != nil {
			return nil, nil, err
		}
		ext = declare.Merge(ext, d)
	}
	in, err := sidecar(l.Dir, opts)
	if err != nil || in == nil {
		return ext, nil, err
	}
	side, err := declare.Parse(l.Rel(in.path), in.data)
	if err != nil {
		return nil, nil, err
	}
	if err := hostOverridden(ext, side); err != nil {
		return nil, nil, err
	}
	return declare.Merge(ext, side), []inputFile{*in}, nil
}

// sidecar returns the declarations file of the project in dir: the bytes
// of opts.Declarations, or the file opts.DeclarationsFile names, or
// compose2manifest.yaml in dir. It is nil when the default file does not
// exist; a named file that does not exist, is not a regular file or is
// over project.MaxInputSize bytes is an error.
func sidecar(dir string, opts Options) (*inputFile, error) {
	p := opts.DeclarationsFile
	if opts.Declarations != nil && opts.Declarations.Path != "" {
		p = opts.Declarations.Path
	}
	explicit := p != ""
	if !explicit {
		p = filepath.Join(dir, DeclarationsFile)
	} else if !filepath.IsAbs(p) {
		wd := opts.WorkingDirectory
		if wd == "" {
			wd, _ = os.Getwd()
		}
		p = filepath.Join(wd, p)
	}
	if opts.Declarations != nil {
		data := opts.Declarations.Data
		if len(data) > project.MaxInputSize {
			return nil, fmt.Errorf("declarations file %s is %d bytes, more than the %d a declarations file may have", p, len(data), project.MaxInputSize)
		}
		return &inputFile{p, data}, nil
	}
	if _, err := os.Stat(p); errors.Is(err, os.ErrNotExist) && !explicit {
		return nil, nil
	}
	if err := project.CheckInputFile("declarations file", p); err != nil {
		return nil, err
	}
	if !explicit {
		// The default file is one the project brings: read it only
		// inside the project.
		if err := project.CheckContained("declarations file", p, append([]string{dir}, opts.AllowDirs...)...); err != nil {
			return nil, err
		}
	}
	data, err := os.ReadFile(p)
	if err != nil {
		return nil, fmt.Errorf("declarations: %w", err)
	}
	return &inputFile{p, data}, nil
}

// knownModule returns the module name of a project that failed to
// convert, when what the project states explicitly tells it for sure, in
// the order Convert decides it: module: in the declarations file, else
// module: under the compose files' x-compose2manifest, else the compose
// project name (-p, or as compose-go loaded it), else a literal name: in
// the compose files unless COMPOSE_PROJECT_NAME would override it. It is
// "" when it cannot be told: a file on the way does not parse, a name is
// written with a variable, or the project would be named after its folder
// by default. l may be nil (the compose files could not be read).
func knownModule(l *project.Project, opts Options) string {
	dir := opts.ProjectDirectory
	if l != nil {
		dir = l.Dir
	} else if dir == "" {
		dir = opts.WorkingDirectory
	} else if !filepath.IsAbs(dir) && opts.WorkingDirectory != "" {
		dir = filepath.Join(opts.WorkingDirectory, dir)
	}
	if dir == "" {
		return ""
	}
	in, err := sidecar(dir, opts)
	if err != nil {
		return ""
	}
	if in != nil {
		f, err := declare.Parse(filepath.Base(in.path), in.data)
		if err != nil {
			return ""
		}
		if f.Module != "" {
			return f.Module
		}
	}
	if l == nil {
		return ""
	}
	module := ""
	for _, x := range l.Extensions(ExtensionKey) {
		f, err := declare.ParseNode(x.File, x.Node)
		if err != nil {
			return ""
		}
		if f.Module != "" {
			module = f.Module
		}
	}
	switch name := l.Name(); {
	case module != "":
		return module
	case opts.ProjectName != "":
		return opts.ProjectName
	case l.Compose != nil:
		return l.Compose.Name
	case name == "" || strings.Contains(name, "$") || l.NameFromEnvironment:
		return ""
	default:
		return name
	}
}

// inputFile is an input read once: its absolute path on this machine and
// its bytes.
type inputFile struct {
	path string
	data []byte
}

// hostOverridden returns an error when the sidecar file declares as owned
// a bind source the compose file's x-compose2manifest declares kind: host
// (or the reverse): the sidecar would win, and a path the author said the
// module never owns would become owned, or the reverse, without a word.
func hostOverridden(ext, side *declare.File) error {
	if ext == nil || side == nil {
		return nil
	}
	var errs declare.Errors
	for _, e := range ext.Binds {
		s := side.Bind(e.Key)
		if s == nil || (e.Kind == declare.KindHost) == (s.Kind == declare.KindHost) {
			continue
		}
		errs = append(errs, &declare.Error{Pos: s.Pos, Msg: fmt.Sprintf("binds: %q is kind: %s here but kind: %s in %s (%s): declare it in one place", s.Key, kindWord(s.Kind), kindWord(e.Kind), ExtensionKey, e.Pos)})
	}
	if len(errs) > 0 {
		return errs
	}
	return nil
}

func kindWord(k declare.Kind) string {
	if k == declare.KindNone {
		return "directory"
	}
	return string(k)
}

// sources returns the manifest's sources: every file the project was
// read from, then the declarations file, each with its sha256.
func sources(l *project.Project, declFiles []inputFile) ([]manifest.Source, error) {
	inputs, err := l.Inputs()
	if err != nil {
		return nil, err
	}
	out := make([]manifest.Source, 0, len(inputs)+len(declFiles))
	for _, in := range inputs {
		out = append(out, manifest.Source{File: l.Rel(in.Path), SHA256: in.SHA256})
	}
	for _, f := range declFiles {
		sum := sha256.Sum256(f.data)
		out = append(out, manifest.Source{File: l.Rel(f.path), SHA256: hex.EncodeToString(sum[:])})
	}
	return out, nil
}

// converter holds the state of one conversion.
type converter struct {
	l *project.Project
	// filesRead are the compose files docker compose reads without -f,
	// and filesLeftOut those the -f files given leave out (C2M025);
	// profilesLeftOut the
	// services the profiles docker compose enables without --profile
	// (defaultProfiles) bring in and the given ones leave out;
	// defaultEnvFiles the env files docker compose reads without
	// --env-file, when the given ones are others.
	filesRead, filesLeftOut, profilesLeftOut, defaultProfiles, defaultEnvFiles []string
	// envDisabled reports that docker compose reads no env file without
	// --env-file (COMPOSE_DISABLE_ENV_FILE), where the given ones are read.
	envDisabled bool
	// filesReordered reports -f naming what docker compose reads without
	// it in another order (C2M025).
	filesReordered bool
	// bindKeys indexes the binds by their key cleaned (holdingBind).
	bindKeys   map[string]*placement.Placement
	opts       Options
	decl       *declare.File
	match      *matcher
	module     string
	hostDir    string
	volumeRoot string
	// layout is declare.LayoutFHS or ""; laidOut holds, under it, the
	// source that took each path placed by intent, so that a second is
	// refused rather than merged.
	layout  string
	laidOut map[string]string
	// missingRoots are the module roots layout fhs needs that no
	// directories: entry declares; collided are the sources layout fhs
	// would place where another landed already (each needs a path).
	missingRoots []MissingRoot
	collided     map[*placement.Placement]bool
	diags        []rules.Diagnostic
	mounts       []project.Mount // of the services converted
	placements   []*placement.Placement
	uncarried    []placement.Field
	unmatched    []placement.Unmatched
	missing      []*missing
	fields       fieldIndex
	images       *images.Table // opts.Images, else the built-in table once a row is needed (table)
	imagesErr    error
	// facts is the image table for what holds whatever --strict says:
	// the variables an image reads from a file, its VOLUME paths.
	facts    *images.Table
	usedAcks map[int]bool
	// secrets are the environment variables judged for C2M015.
	secrets []rules.EnvSecret
	// known holds the values known to be secrets (knownSecrets), once
	// computed.
	known *[]knownSecret
	// seen holds what the checkout showed of each relative bind source
	// (evidence), read once: the resources and the fingerprint record
	// the same observation.
	seen map[string]project.SourceEvidence
	// usedCreds marks the credentials: items that matched a variable.
	usedCreds map[int]bool
	// credUsers maps a declared credential's name to the services it is
	// delivered to.
	credUsers map[string][]string
	// credMounted marks the declared credentials mounted as a file
	// (/run/secrets/NAME) in some container.
	credMounted map[string]bool
	// disposed holds, per service, the notes of the image VOLUME paths
	// acknowledged disposable (mounted as a tmpfs).
	disposed map[string][]string
	// imageVolumeFacts are the image VOLUME paths nothing settles
	// (C2M024).
	imageVolumeFacts []rules.ImageVolume
	// shadowed are the file configs and secrets a volume of their
	// service mounts over (unshadowed, unshadowedSecrets).
	shadowed []rules.ShadowedFile
}

// unshadowed returns a service's own mounts and the mounts of its file
// configs, less each config at a target one of its own mounts has too:
// docker compose mounts the volume there and not the config
// (fillBindMounts: a volume wins over a config or secret at its target),
// and so does the manifest, which says so (rules.ShadowedFile, C2M005
// warning). The config's file still counts for the declarations it
// matches: a key for it is no typo.
func (c *converter) unshadowed(own, configs []project.Mount) []project.Mount {
	out := own
	for _, cm := range configs {
		i := slices.IndexFunc(own, func(m project.Mount) bool { return m.Target == cm.Target })
		if i < 0 {
			out = append(out, cm)
			continue
		}
		c.match.lookup(declare.SectionBinds, cm.Key)
		c.shadowed = append(c.shadowed, rules.ShadowedFile{What: "config", Service: cm.Service, Name: cm.Config, Target: cm.Target, File: cm.Source,
			Volume: own[i].Display(), Pos: cm.Pos, VolumePos: own[i].Pos})
	}
	return out
}

// table returns the image table, the built-in one (images.Default,
// parsed once per process) unless the caller gave one; nil when it
// cannot be parsed (imagesErr says why).
func (c *converter) table() *images.Table {
	if c.opts.Strict && c.opts.Images == nil {
		return nil // --strict produces nothing from the built-in table
	}
	if c.images == nil && c.imagesErr == nil {
		c.images, c.imagesErr = images.Default()
	}
	return c.images
}

// missing is a source whose declaration is missing or incomplete, for the
// skeleton.
type missing struct {
	src    *placement.Placement
	entry  declare.Entry // values known so far
	reason string
	// imageVolume is set for an image VOLUME nothing mounts (C2M024).
	imageVolume bool
}

// build converts the loaded project into a module.
func (c *converter) build() *manifest.Module {
	p := c.l.Compose
	m := &manifest.Module{Version: manifest.Version, Module: c.module}

	names := make([]string, 0, len(p.Services))
	for name := range p.Services {
		names = append(names, name)
	}
	sort.Strings(names)
	var mounts, imageOnly []project.Mount
	byService := map[string][]project.Mount{}
	users := map[string]string{}
	imageAdded := map[string][]project.Mount{}
	for _, name := range names {
		svc := p.Services[name]
		ms := c.unshadowed(c.l.Mounts(svc), c.l.ConfigMounts(svc, configTarget))
		added, undeclared := c.imageVolumes(svc, ms)
		ms = append(ms, added...)
		imageAdded[name] = added
		imageOnly = append(imageOnly, undeclared...)
		byService[name] = ms
		users[name] = svc.User
	}
	// volumes_from brings an image VOLUME's anonymous volume too, as
	// docker mounts every volume of the named container (project.Mounts
	// knows only the compose file's); services in start order, so a
	// chain of volumes_from passes it on.
	for _, name := range startOrder(p) {
		for _, ref := range p.Services[name].VolumesFrom {
			from, mode, _ := strings.Cut(ref, ":")
			if strings.HasPrefix(ref, "container:") {
				continue
			}
			for _, m := range imageAdded[from] {
				if slices.ContainsFunc(byService[name], func(o project.Mount) bool { return o.Target == m.Target }) {
					continue
				}
				if m.Kind == project.Tmpfs {
					// Acknowledged disposable: a tmpfs of from's own,
					// where docker shares one anonymous volume with
					// this service too (C2M010).
					byService[name] = append(byService[name], project.Mount{Service: name, Kind: project.Unsupported, Pos: m.Pos, Target: m.Target,
						Source: "volumes_from " + from,
						Why:    fmt.Sprintf("the image VOLUME %s acknowledged disposable that volumes_from %s brings (one anonymous volume docker shares between the containers, where a tmpfs is each container's own; declare it under anonymous: %q so both mount one directory)", m.Target, from, from+":"+m.Target)})
					continue
				}
				if m.Kind != project.Anonymous {
					continue
				}
				if m.From == "" {
					m.From = m.Service
				}
				m.Service, m.ReadOnly = name, m.ReadOnly || mode == "ro"
				byService[name] = append(byService[name], m)
				imageAdded[name] = append(imageAdded[name], m)
			}
		}
	}
	for _, name := range names {
		mounts = append(mounts, byService[name]...)
	}
	c.mounts = mounts
	c.acknowledgedOptions(mounts)
	// Services left out by profiles still count when matching declaration
	// keys: a key for them is not a typo.
	for _, name := range slices.Sorted(maps.Keys(p.DisabledServices)) {
		svc := p.DisabledServices[name]
		ms := append(c.l.Mounts(svc), c.l.ConfigMounts(svc, configTarget)...)
		for _, v := range c.uncoveredVolumes(svc, ms) {
			// An image VOLUME of a service left out: its declaration or
			// acknowledgement is not a typo either.
			ms = append(ms, project.Mount{Service: name, Kind: project.Anonymous, Target: v.Path})
			c.disposable(name, v.Path)
		}
		c.acknowledgedOptions(ms)
		for _, s := range groupSources(ms) {
			c.match.lookup(s.Section, s.Key)
		}
	}

	hostPaths := map[string]string{} // section+key -> host path
	// Every placement is known before any is placed: a bind lands inside
	// the bind holding it (holdingBind), whichever service mounts it first.
	for _, s := range groupSources(mounts) {
		s.Entry = c.match.lookup(s.Section, s.Key)
		c.placements = append(c.placements, s)
	}
	for _, s := range c.placements {
		if r := c.declare(s, users); r != nil {
			m.Resources = append(m.Resources, *r)
			hostPaths[s.Section+"\x00"+s.Key] = r.Path
		}
	}
	for _, s := range groupSources(imageOnly) {
		c.offerImageVolume(s, users)
	}
	if c.decl != nil {
		for _, e := range c.decl.Directories {
			r := manifest.Resource{Kind: manifest.KindDirectory, Path: e.Key,
				Owner: e.Owner, Mode: e.Mode, Intent: manifest.Intent(e.Intent), Note: e.Note,
				Pos: e.Pos, Comment: "supplied: " + e.Pos.File}
			if e.AcknowledgeMode && e.Mode != "" {
				r.Comment += "; " + rules.AckModeNote(e.Mode)
			}
			if e.Kind == declare.KindHost {
				// A parent another module (or the host) owns.
				r = manifest.Resource{Kind: manifest.KindHost, Path: e.Key, Note: e.Note, Pos: e.Pos, Comment: r.Comment}
			}
			m.Resources = append(m.Resources, r)
		}
	}
	m.Resources = append(m.Resources, c.deviceHosts(names, m.Resources)...)
	sort.SliceStable(m.Resources, func(i, j int) bool {
		return manifest.ComparePaths(m.Resources[i].Path, m.Resources[j].Path) < 0
	})
	// Containers come last, each after the containers it needs, as docker
	// compose starts them: the host applies in the order written. They
	// are built first, since the credentials: they use come before them.
	var containers []manifest.Resource
	for _, name := range startOrder(p) {
		if r := c.container(p.Services[name], byService[name], hostPaths); r != nil {
			containers = append(containers, *r)
		}
	}
	m.Resources = append(m.Resources, c.credentials(names)...)
	m.Resources = append(m.Resources, containers...)
	c.maskComments(m.Resources)
	c.leftOut()
	c.topLevelNotCarried()
	c.jobsNotCarried()
	c.unmatched = append(c.unmatched, c.uncarriedKeys(c.tmpfsKeys(c.match.unused()))...)
	c.unmatched = append(c.unmatched, c.unusedAcks()...)
	c.unmatched = append(c.unmatched, c.unusedCredentials()...)
	return m
}

// declare returns the resource declaring s on the target host, or nil when
// it cannot be placed or has no declaration; either way it reports why.
func (c *converter) declare(s *placement.Placement, users map[string]string) *manifest.Resource {
	first := s.First()
	e := s.Entry
	r := &manifest.Resource{Kind: manifest.KindDirectory, Pos: first.Pos,
		Origin: &manifest.Origin{Source: first.Display(), Services: s.Services()}}
	if e != nil {
		r.Pos = e.Pos
	}
	var provenance []string
	if e != nil {
		provenance = append(provenance, "supplied: "+e.Pos.File)
	}
	// What the checkout shows of a relative bind source (project.Evidence,
	// the one file evidence ask takes too).
	var ev project.SourceEvidence
	if s.Section == declare.SectionBinds {
		ev = c.evidence(s.Key)
	}
	noKind := e == nil || e.Kind == declare.KindNone
	// A link out of the project names, on the target host, a place the
	// checkout does not show: only kind host or a path of its own settle
	// where the source is.
	if ev.Outside != "" && (e == nil || (e.Kind != declare.KindHost && e.Path == "")) {
		s.LinkOutside = ev.Outside
	}

	// Where it lands on the target host.
	hostPath, legacy, placeErr := c.place(s)
	r.Origin.Legacy = legacy
	if legacy == "" && hostPath != "" && s.Section == declare.SectionBinds && !path.IsAbs(s.Key) && !strings.HasPrefix(s.Key, "~") {
		// Under host_project_directory as written: its data is in the
		// legacy checkout, which plan copies when that is elsewhere.
		// Not relocated, so no "legacy:" in the comment.
		r.Origin.Legacy = "bind " + s.Key
	}
	s.HostPath, s.Legacy = hostPath, legacy
	if s.Section == declare.SectionBinds && !strings.HasPrefix(s.Key, "~") {
		s.Real = declare.NormalizeBind(s.Key)
		if ev.Resolved != "" && ev.Outside == "" {
			s.Real, r.Origin.Resolved = ev.Resolved, ev.Resolved
		}
	}
	if placeErr != "" {
		s.Unplaced = placeErr
		// The skeleton still offers what is known of the source.
		if e != nil {
			r.Owner, r.Mode, r.Intent, r.Note = e.Owner, e.Mode, manifest.Intent(e.Intent), e.Note
			switch e.Kind {
			case declare.KindFile:
				r.Kind = manifest.KindFile
			case declare.KindHost:
				// Declared as used, never owned: only its location is
				// missing, and nothing may turn it into an owned path.
				r.Kind = manifest.KindHost
				r.Owner, r.Mode, r.Intent = "", "", ""
			}
		}
		if noKind && !c.opts.Strict && ev.Kind == declare.KindFile {
			r.Kind = manifest.KindFile
		}
		if noKind {
			s.KindUnknown = c.kindUnknown(s, ev)
		}
		conflict := ""
		if !c.opts.Strict && r.Kind != manifest.KindHost {
			var ignored []string
			conflict = c.produce(s, r, e, users, &ignored)
		}
		reason := placeErr
		if conflict != "" {
			reason += "; no owner produced: " + conflict
		}
		c.addMissingResource(s, r, reason)
		return nil
	}
	if !manifest.ValidPath(hostPath) {
		s.Unplaced = fmt.Sprintf("source %q lands at %q, which is not an absolute, clean host path without control characters", first.Source, hostPath)
		return nil
	}
	r.Path = hostPath

	// Kind: supplied, or produced from evidence.
	evidence := ev.Kind
	kind := declare.KindNone
	if e != nil {
		kind = e.Kind
	}
	switch {
	case kind != declare.KindNone:
		switch {
		case kind == declare.KindHost:
		case evidence != declare.KindNone && evidence != kind:
			s.KindConflict = fmt.Sprintf("declared kind: %s, but %s is %s", kind, first.Source, evidenceWhat(ev))
		case kind == declare.KindFile && s.Section == declare.SectionBinds && strings.HasSuffix(first.Source, "/"):
			s.KindConflict = fmt.Sprintf("declared kind: file, but the compose file writes %s with a trailing slash, a directory", first.Source)
		default:
			if row, ok, _ := c.imageRow(s); ok && row.Kind != "" && row.Kind != string(kind) {
				s.KindConflict = fmt.Sprintf("declared kind: %s, but image %s keeps a %s at %s (%s:%d)", kind, row.Repository, row.Kind, row.Path, images.TableFile, row.Line)
			}
		}
	case e == nil && !c.opts.Strict && s.Section == declare.SectionBinds && strings.HasPrefix(s.Key, "/") && project.WellKnownHost(s.Key):
		kind = declare.KindHost
		provenance = append(provenance, "produced: well-known host path")
	case evidence == declare.KindFile && !c.opts.Strict:
		kind = declare.KindFile
		if e != nil {
			provenance = append(provenance, "kind produced: "+evidenceWhat(ev))
		}
	default:
		kind = declare.KindDirectory
		switch why := c.kindUnknown(s, ev); {
		case why != "":
			s.KindUnknown = why
		case evidence == declare.KindDirectory && ev.Link != "" && !c.opts.Strict:
			provenance = append(provenance, "kind produced: "+evidenceWhat(ev))
		case ev.Absent && !c.rowKind(s) && outsideProject(s.Key):
			// Evidence is taken inside the project only.
			provenance = append(provenance, "kind directory: "+first.Source+" lies outside the project, which is not looked into")
		case ev.Absent && !c.rowKind(s):
			provenance = append(provenance, "kind directory: "+first.Source+" absent from the checkout")
		case ev.Outside != "" && !c.rowKind(s):
			provenance = append(provenance, "kind directory: "+first.Source+" a link out of the checkout")
		}
	}
	r.Kind = manifest.Kind(kind)
	if legacy != "" {
		provenance = append(provenance, "legacy: "+legacy)
	}
	if r.Kind == manifest.KindHost {
		if e != nil {
			r.Note = e.Note
		}
		r.Comment = strings.Join(provenance, "; ")
		return r
	}

	// Owner, mode, intent: supplied, or produced from evidence.
	if e != nil {
		r.Owner, r.Mode, r.Intent, r.Note = e.Owner, e.Mode, manifest.Intent(e.Intent), e.Note
	}
	conflict := ""
	if !c.opts.Strict {
		conflict = c.produce(s, r, e, users, &provenance)
	}
	if e == nil {
		// Without a supplied declaration, evidence alone must give all
		// three values.
		if r.Owner == "" || r.Mode == "" || r.Intent == "" {
			msg := "no declaration"
			var have []string
			if r.Owner != "" {
				have = append(have, "owner "+r.Owner)
			}
			if r.Mode != "" {
				have = append(have, "mode "+r.Mode)
			}
			if r.Intent != "" {
				have = append(have, "intent "+string(r.Intent))
			}
			if len(have) > 0 {
				msg += " (produced " + strings.Join(have, ", ") + "; still missing " + missingFields(r) + ")"
			}
			if conflict != "" {
				msg += "; no owner produced: " + conflict
			}
			if why := c.outOfVersion(s); why != "" {
				msg += "; " + why
			}
			s.Undeclared = msg
			c.addMissingResource(s, r, msg)
			return nil
		}
	} else if r.Owner == "" || r.Mode == "" || r.Intent == "" {
		reason := "incomplete declaration"
		if conflict != "" {
			reason += "; no owner produced: " + conflict
		}
		c.addMissingResource(s, r, reason)
	} else if s.KindUnknown != "" || s.LinkOutside != "" {
		// Complete (supplied, or produced from evidence) but for its kind
		// or its location: the skeleton and ask still offer it.
		c.addMissingResource(s, r, cmp.Or(s.KindUnknown, s.LinkOutside))
	}
	if e != nil && e.AcknowledgeMode && r.Mode != "" {
		provenance = append(provenance, rules.AckModeNote(r.Mode))
	}
	if e == nil && r.Kind == manifest.KindFile && evidence == declare.KindFile {
		provenance = append(provenance, "kind produced: "+evidenceWhat(ev))
	} else if e == nil && r.Kind == manifest.KindFile {
		provenance = append(provenance, "kind produced: a regular file in the project")
	}
	r.Comment = strings.Join(provenance, "; ")
	return r
}

// produce fills the values r lacks from evidence: owner from the services'
// user:, and kind, owner, mode and intent from the image table. It appends
// what it produced to provenance and returns why an owner was not
// produced when evidence conflicted.
func (c *converter) produce(s *placement.Placement, r *manifest.Resource, e *declare.Entry, users map[string]string, provenance *[]string) string {
	userOwnerValue, userEvidence, conflict := "", "", ""
	if r.Owner == "" {
		userOwnerValue, userEvidence, conflict = userOwner(s, users)
	}
	row, rowOK, rowConflict := c.imageRow(s)
	if s.Section == declare.SectionBinds && (strings.HasPrefix(s.Key, "/") || strings.HasPrefix(s.Key, "~")) {
		// An absolute host path exists on the host with an owner and a
		// mode of its own (/etc/ssh, /home/alice): what an image wants
		// inside is no evidence of what the host directory should be.
		row, rowOK, rowConflict = images.Row{}, false, ""
	}
	if rowConflict != "" && conflict == "" {
		conflict = rowConflict
	}
	if userOwnerValue != "" && rowOK && row.Owner != "" && row.Owner != userOwnerValue {
		conflict = fmt.Sprintf("%s, but image %s (%s:%d) runs as %s", userEvidence, row.Repository, images.TableFile, row.Line, row.Owner)
		userOwnerValue = ""
		row.Owner = ""
	}
	if rowOK && row.Owner != "" {
		// A user: that is not the full numeric UID:GID still says the
		// process does not run as the image's user when it names another
		// uid, or a user the table cannot vouch for.
		if why := userContradicts(s, users, row.Owner); why != "" {
			conflict = fmt.Sprintf("%s, but image %s (%s:%d) runs as %s", why, row.Repository, images.TableFile, row.Line, row.Owner)
			row.Owner = ""
		}
	}
	if userOwnerValue != "" {
		r.Owner = userOwnerValue
		*provenance = append(*provenance, "owner produced: "+userEvidence)
	}
	if !rowOK {
		return conflict
	}
	var fields []string
	if r.Owner == "" && row.Owner != "" {
		r.Owner = row.Owner
		fields = append(fields, "owner")
	}
	if r.Mode == "" && row.Mode != "" {
		r.Mode = row.Mode
		fields = append(fields, "mode")
	}
	if r.Intent == "" && row.Intent != "" {
		r.Intent = row.Intent
		fields = append(fields, "intent")
	}
	if row.Kind == "file" && r.Kind == manifest.KindDirectory && (e == nil || e.Kind == declare.KindNone) {
		r.Kind = manifest.KindFile
		fields = append(fields, "kind")
	}
	if len(fields) > 0 {
		basis := ""
		if strings.Contains(strings.Join(fields, ","), "mode") && row.ModeBasis != "" {
			basis = ", mode " + row.ModeBasis
		}
		*provenance = append(*provenance, fmt.Sprintf("%s produced: image table row %s %s (%s:%d%s)",
			strings.Join(fields, ", "), row.Repository, row.Path, images.TableFile, row.Line, basis))
	}
	return conflict
}

// userContradicts returns why a service mounting s runs as someone other
// than owner ("UID:GID"), or "": a user: with another uid or gid, or a
// user name, which the table cannot map to a uid.
func userContradicts(s *placement.Placement, users map[string]string, owner string) string {
	ouid, ogid, _ := strings.Cut(owner, ":")
	for _, svc := range s.Services() {
		u := users[svc]
		if u == "" {
			continue
		}
		uid, gid, hasGID := strings.Cut(u, ":")
		switch {
		case !numeric(uid):
			return fmt.Sprintf("service %q has user: %s, a name the image table cannot map to a uid", svc, u)
		case uid != ouid || (hasGID && numeric(gid) && gid != ogid):
			return fmt.Sprintf("service %q user: %s", svc, u)
		case hasGID && !numeric(gid):
			return fmt.Sprintf("service %q has user: %s, a group name the image table cannot map to a gid", svc, u)
		}
	}
	return ""
}

// imageRow returns the image table row that the mounts of s match, or why
// two rows disagree.
func (c *converter) imageRow(s *placement.Placement) (images.Row, bool, string) {
	var found images.Row
	ok := false
	for _, m := range s.Mounts {
		svc, exists := c.l.Compose.Services[m.Service]
		if !exists {
			continue
		}
		t := c.table()
		if t == nil {
			return images.Row{}, false, ""
		}
		row, matched := t.Match(svc.Image, m.Target)
		if !matched {
			continue
		}
		if ok && (row.Owner != found.Owner || row.Mode != found.Mode || row.Intent != found.Intent || row.Kind != found.Kind) {
			return images.Row{}, false, fmt.Sprintf("image table rows %s %s (%s:%d) and %s %s (%s:%d) disagree", found.Repository, found.Path, images.TableFile, found.Line, row.Repository, row.Path, images.TableFile, row.Line)
		}
		found, ok = row, true
	}
	return found, ok, ""
}

// outOfVersionText starts outOfVersion's reason; the skeleton's comment
// repeats the reason from it on.
const outOfVersionText = "the image table knows "

// outOfVersion says why the image table gave s no evidence when a row
// for a mount's image and target exists but only up to a major version
// the image's tag does not name, or "".
func (c *converter) outOfVersion(s *placement.Placement) string {
	t := c.table()
	for _, m := range s.Mounts {
		svc, ok := c.l.Compose.Services[m.Service]
		if !ok {
			continue
		}
		if row, ok := t.OutOfVersion(svc.Image, m.Target); ok {
			return fmt.Sprintf(outOfVersionText+"%s %s (%s:%d) up to major version %d only, and image %s names no major version up to it: pin one in the tag, or declare the source", row.Repository, row.Path, images.TableFile, row.Line, row.MaxMajor, svc.Image)
		}
	}
	return ""
}

// evidence returns project.Evidence for the bind source key in the
// project directory, read once per conversion.
func (c *converter) evidence(key string) project.SourceEvidence {
	if ev, ok := c.seen[key]; ok {
		return ev
	}
	ev := project.Evidence(c.l.Dir, key)
	if c.seen == nil {
		c.seen = map[string]project.SourceEvidence{}
	}
	c.seen[key] = ev
	return ev
}

// outsideProject reports whether a relative bind key climbs out of the
// project directory (../shared).
func outsideProject(key string) bool {
	rel := path.Clean(key)
	return rel == ".." || strings.HasPrefix(rel, "../")
}

func evidenceWord(k declare.Kind) string {
	if k == declare.KindFile {
		return "regular file"
	}
	return "directory"
}

// evidenceWhat says what a source the checkout shows is, for a
// provenance comment or a conflict: "a regular file in the project", "a
// link in the project to a directory".
func evidenceWhat(ev project.SourceEvidence) string {
	if ev.Link != "" {
		return "a link in the project to a " + evidenceWord(ev.Kind) + " (" + ev.Link + ")"
	}
	return "a " + evidenceWord(ev.Kind) + " in the project"
}

// kindUnknown says why the kind of a bind source without a declared kind
// cannot be told, or "": the checkout has nothing at the source (or only
// a link out of the project), or the source is absolute or in a home
// directory (~), which the checkout cannot show, and not a path the
// module may not own there (notOwnedThere); nothing else settles it
// (a trailing slash, the image table's kind); and the source's or a
// target's last element looks like a file name (project.LooksLikeFile),
// where docker would create a directory and break a file mount.
func (c *converter) kindUnknown(s *placement.Placement, ev project.SourceEvidence) string {
	first := s.First()
	elsewhere := strings.HasPrefix(s.Key, "/") || strings.HasPrefix(s.Key, "~")
	if strings.HasPrefix(s.Key, "/") && c.notOwnedThere(s) {
		return "" // kind host or a path of its own first: C2M006 says
	}
	if s.Section != declare.SectionBinds || ev.Kind != declare.KindNone || !(ev.Absent || ev.Outside != "" || elsewhere) || strings.HasSuffix(first.Source, "/") || c.rowKind(s) {
		return ""
	}
	name := ""
	switch {
	case project.LooksLikeFile(s.Key):
		name = "its name " + path.Base(s.Key)
	default:
		for _, m := range s.Mounts {
			if project.LooksLikeFile(m.Target) {
				name = "its target " + m.Target
				break
			}
		}
	}
	if name == "" {
		return ""
	}
	where := "is not in the checkout"
	switch {
	case ev.Outside != "":
		where = "leads out of the checkout"
	case strings.HasPrefix(s.Key, "/"):
		where = "is a path on the target host, which the checkout does not show"
	case strings.HasPrefix(s.Key, "~"):
		where = "is in a home directory on the legacy host, which the checkout does not show"
	}
	return fmt.Sprintf("no kind declared, and %s %s, so nothing tells a file from a directory; %s looks like a file, but docker would create a directory there", first.Source, where, name)
}

// notOwnedThere reports whether the absolute bind source of s is a path
// of the host's (rules.HostPath: a socket, /etc/passwd), or one the
// module may not own where it is and is given no path of its own
// (rules.Ownable): C2M006 asks for kind host or a path first, and whether
// it is a file matters only once it has a place the module owns.
func (c *converter) notOwnedThere(s *placement.Placement) bool {
	p := path.Clean(s.Key)
	if _, hosts := rules.HostPath(p); hosts {
		return true
	}
	if s.Entry != nil && s.Entry.Path != "" {
		return false
	}
	var roots []string
	for _, r := range c.roots() {
		roots = append(roots, r.Path)
	}
	_, ok := rules.Ownable(p, c.module, roots)
	return !ok
}

// rowKind reports whether, with production on, the image table row the
// mounts of s match says whether the source is a file or a directory.
func (c *converter) rowKind(s *placement.Placement) bool {
	if c.opts.Strict {
		return false
	}
	row, ok, _ := c.imageRow(s)
	return ok && row.Kind != ""
}

func missingFields(r *manifest.Resource) string {
	var out []string
	if r.Owner == "" {
		out = append(out, "owner")
	}
	if r.Mode == "" {
		out = append(out, "mode")
	}
	if r.Intent == "" {
		out = append(out, "intent")
	}
	return strings.Join(out, ", ")
}

// place returns the host path of s on the target host and, for a named
// volume or a relocated bind, where its data lives under Docker today; or
// the reason it has no location (C2M013).
func (c *converter) place(s *placement.Placement) (hostPath, legacy, problem string) {
	first := s.First()
	var declared string
	if s.Entry != nil {
		declared = s.Entry.Path
	}
	if declared == "" && c.layout == declare.LayoutFHS {
		switch {
		case s.Entry != nil && s.Entry.Kind != declare.KindHost:
			return c.placeByIntent(s)
		case s.Entry == nil && (s.Section != declare.SectionBinds || !strings.HasPrefix(s.Key, "/") && !strings.HasPrefix(s.Key, "~")):
			// Undeclared, its values to be produced from evidence: laid
			// out like a declaration (an absolute bind source stays
			// where it is, a ~ one needs its path either way).
			return c.placeByIntent(s)
		}
	}
	switch s.Section {
	case declare.SectionBinds:
		written := s.Key
		if holder := c.holdingBind(s); declared == "" && holder != nil && holder.Entry != nil && holder.Entry.Path != "" {
			// Inside a bind given a path of its own: it moves with it,
			// as docker mounts them as one tree.
			rel, _ := declare.BindWithin(holder.Key, written)
			return path.Join(holder.Entry.Path, rel), "bind " + s.Key, ""
		}
		switch {
		case declared != "":
			return declared, "bind " + s.Key, ""
		case strings.HasPrefix(written, "~"):
			return "", "", fmt.Sprintf("bind source %s is relative to the legacy host's home (~), which the converter cannot know: declare its path", first.Source)
		case strings.HasPrefix(written, "/"):
			return written, "", ""
		case c.hostDir == "":
			return "", "", fmt.Sprintf("relative bind source %s has no location on the target host: set host_project_directory (or --host-project-directory), or declare its path", first.Source)
		default:
			return path.Join(c.hostDir, written), "", ""
		}
	case declare.SectionVolumes:
		legacy = "Docker volume " + c.dockerVolumeName(first.Volume)
		switch {
		case declared != "":
			return declared, legacy, ""
		case c.volumeRoot == "":
			return "", "", fmt.Sprintf("named volume %q has no location on the target host: set volume_root (or --volume-root), or declare its path", first.Volume)
		default:
			return c.underRoot(path.Join(c.volumeRoot, c.module, first.Volume), fmt.Sprintf("named volume %q", first.Volume), legacy)
		}
	default: // anonymous
		legacy = "anonymous Docker volume of service " + first.AnonymousService()
		switch {
		case declared != "":
			return declared, legacy, ""
		case c.volumeRoot == "":
			return "", "", fmt.Sprintf("anonymous volume at %s has no location on the target host: set volume_root (or --volume-root), or declare its path", first.Target)
		default:
			return c.underRoot(path.Join(c.volumeRoot, c.module, first.AnonymousService(), targetName(first.Target)), fmt.Sprintf("anonymous volume of service %q", first.AnonymousService()), legacy)
		}
	}
}

// underRoot returns p when it lies below VOLUME_ROOT/MODULE, or why not:
// a volume or service named "." or ".." would otherwise land on the volume
// root itself or in another module's folder.
func (c *converter) underRoot(p, what, legacy string) (string, string, string) {
	if !manifest.IsAncestor(path.Join(c.volumeRoot, c.module), p) {
		return "", "", fmt.Sprintf("%s would land at %s, outside %s: declare its path", what, p, path.Join(c.volumeRoot, c.module))
	}
	return p, legacy, ""
}

// targetName turns a container path into one path element:
// "/var/lib/postfix" -> "var-lib-postfix".
func targetName(target string) string {
	return strings.ReplaceAll(strings.Trim(target, "/"), "/", "-")
}

// dockerVolumeName is the name Docker gave a named volume: its name:, or
// PROJECT_KEY.
func (c *converter) dockerVolumeName(key string) string {
	if v, ok := c.l.Compose.Volumes[key]; ok && v.Name != "" {
		return v.Name
	}
	return c.l.Compose.Name + "_" + key
}

func (c *converter) addMissingResource(s *placement.Placement, r *manifest.Resource, reason string) {
	e := declare.Entry{Key: s.Key, Owner: r.Owner, Mode: r.Mode, Intent: string(r.Intent), Note: r.Note}
	if s.Entry != nil {
		e.Key, e.Path = s.Entry.Key, s.Entry.Path
	}
	switch r.Kind {
	case manifest.KindFile:
		e.Kind = declare.KindFile
	case manifest.KindHost:
		e.Kind = declare.KindHost
	}
	c.missing = append(c.missing, &missing{src: s, entry: e, reason: reason})
}

// sortDiagnostics orders diagnostics by file, line, rule and message, and
// fills in the module and a fix where missing.
func sortDiagnostics(ds []rules.Diagnostic, module string) []rules.Diagnostic {
	for i := range ds {
		if ds[i].Module == "" {
			ds[i].Module = module
		}
	}
	rules.FillFixes(rules.All(), ds)
	sort.SliceStable(ds, func(i, j int) bool {
		a, b := ds[i], ds[j]
		if a.File != b.File {
			return a.File < b.File
		}
		if a.Line != b.Line {
			return a.Line < b.Line
		}
		if a.Rule != b.Rule {
			return a.Rule < b.Rule
		}
		return a.Message < b.Message
	})
	return ds
}

// builtRules returns the rules whose module-scope check runs over the
// module convert builds: all but those whose project-scope check reports
// the same findings at the compose file's lines (Rule.SkipBuilt).
func builtRules() []*rules.Rule {
	var out []*rules.Rule
	for _, r := range rules.All() {
		if !r.SkipBuilt {
			out = append(out, r)
		}
	}
	return out
}

// flagsAgainstDefaults finds what -f, --profile and --env-file, given,
// change from what docker compose reads in the project directory without
// them (C2M025), read once (project.ReadWithoutFlags): the compose files
// they leave out or reorder, the services the default profiles bring in
// and the given ones leave out, the default env files when the given ones
// are others. A flag the declarations record as it is (compose_files:,
// profiles:, env_files:, a choice made where a reviewer sees it) changes
// nothing.
func (c *converter) flagsAgainstDefaults(given Options, st settings) {
	wd := given.WorkingDirectory
	if wd == "" {
		wd, _ = os.Getwd()
	}
	files := len(given.ConfigFiles) > 0 && !slices.Equal(absPaths(given.ConfigFiles, wd), st.composeFiles)
	profiles := len(given.Profiles) > 0 && !slices.Equal(given.Profiles, st.profiles)
	envFiles := absPaths(given.EnvFiles, wd)
	if len(envFiles) > 0 && slices.Equal(envFiles, st.envFiles) {
		envFiles = nil
	}
	if !files && !profiles && len(envFiles) == 0 {
		return
	}
	def := project.ReadWithoutFlags(c.l.Dir, c.opts.Environ)
	if files {
		c.filesRead = def.Files
		c.filesLeftOut, c.filesReordered = c.l.FilesAgainst(def.Files)
	}
	if profiles && len(def.Profiles) > 0 {
		all := slices.Contains(def.Profiles, "*")
		for _, name := range slices.Sorted(maps.Keys(c.l.Compose.DisabledServices)) {
			svc := c.l.Compose.DisabledServices[name]
			if all || slices.ContainsFunc(svc.Profiles, func(p string) bool { return slices.Contains(def.Profiles, p) }) {
				c.profilesLeftOut = append(c.profilesLeftOut, name)
			}
		}
		if len(c.profilesLeftOut) > 0 {
			c.defaultProfiles = def.Profiles
		}
	}
	if len(envFiles) > 0 && (len(def.EnvFiles) > 0 || def.EnvDisabled) && !slices.Equal(envFiles, def.EnvFiles) {
		c.defaultEnvFiles = def.EnvFiles
		c.envDisabled = def.EnvDisabled && len(def.EnvFiles) == 0
	}
}

// absPaths returns paths made absolute against wd and cleaned; nil for
// none.
func absPaths(paths []string, wd string) []string {
	var out []string
	for _, p := range paths {
		if !filepath.IsAbs(p) {
			p = filepath.Join(wd, p)
		}
		out = append(out, filepath.Clean(p))
	}
	return out
}

// pass returns the facts of the conversion for the project-scope rules.
func (c *converter) pass() *rules.ProjectPass {
	p := &rules.ProjectPass{Project: c.l, Mounts: c.mounts, Declarations: c.decl, NotCarried: c.uncarried, Unmatched: c.unmatched, Secrets: c.secrets,
		ImageVolumes: c.imageVolumeFacts, ShadowedFiles: c.shadowed, FilesRead: c.filesRead, FilesLeftOut: c.filesLeftOut, FilesReordered: c.filesReordered, EnvDisabled: c.envDisabled,
		ProfilesLeftOut: c.profilesLeftOut, DefaultProfiles: c.defaultProfiles, DefaultEnvFiles: c.defaultEnvFiles}
	for _, s := range c.placements {
		p.Placements = append(p.Placements, *s)
	}
	return p
}
