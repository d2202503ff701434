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
	"reflect"
	"slices"
	"strconv"
	"strings"

	"github.com/compose-spec/compose-go/v2/types"
	"github.com/compose2manifest/compose2manifest/declare"
	"github.com/compose2manifest/compose2manifest/imageconfig"
	"github.com/compose2manifest/compose2manifest/images"
	"github.com/compose2manifest/compose2manifest/internal/bound"
	"github.com/compose2manifest/compose2manifest/internal/fsread"
	"github.com/compose2manifest/compose2manifest/internal/suggest"
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
//
// With Options.Timeout, the conversion runs within it (see TimeoutError);
// when ctx is done, Convert stops at the next point it checks it and
// returns ctx's error.
func Convert(ctx context.Context, opts Options) (*Result, error) {
	if opts.Timeout < 0 {
		return &Result{Status: Failed}, fmt.Errorf("--project-timeout %s: want 0 (no limit) or more", opts.Timeout)
	}
	type outcome struct {
		res *Result
		err error
	}
	o, err := bound.Run(ctx, opts.Timeout, func(ctx context.Context) outcome {
		res, err := convert(ctx, opts)
		return outcome{res, err}
	})
	switch {
	case errors.Is(err, context.DeadlineExceeded) && ctx.Err() == nil,
		opts.Timeout > 0 && errors.Is(o.err, context.DeadlineExceeded) && ctx.Err() == nil:
		return &Result{Status: Failed}, &TimeoutError{Timeout: opts.Timeout}
	case err != nil:
		return &Result{Status: Failed}, err
	}
	return o.res, o.err
}

// convert is Convert without its bound: it checks the options, loads
// the project, reads its declarations, lock and survey, builds the
// module, then judges it and writes the result.
func convert(ctx context.Context, opts Options) (res *Result, err error) {
	var l *project.Project
	defer func() { describe(res, l) }()
	given := opts // before the declarations fill anything in: converted_with
	if err := checkOptions(opts); err != nil {
		return &Result{Status: Failed}, err
	}
	l, opts, st, err := load(ctx, opts)
	if err != nil {
		res := &Result{Status: Failed, KnownModule: knownModule(l, opts)}
		if l != nil {
			res.Diagnostics = rules.RunProject(rules.All(), &rules.ProjectPass{Project: l})
		}
		return res, err
	}
	res = &Result{ProjectDirectory: l.Dir, ProjectName: l.Compose.Name}
	folderNamed(res, l, opts)
	surveyFile, err := readSurvey(&opts, res, l)
	if err != nil {
		res.Status = Failed
		return res, err
	}
	c, err := newConverter(l, opts, given, st)
	if c != nil {
		c.surveyFile = surveyFile
	}
	if err != nil {
		res.Status = Failed
		if c == nil {
			// Stopped before the services are built: the project-scope
			// rules judge what the reading alone shows.
			res.KnownModule = knownModule(l, opts)
			res.Diagnostics = rules.RunProject(rules.All(), &rules.ProjectPass{Project: l})
		}
		return res, err
	}
	m := c.build(ctx)
	if err := ctx.Err(); err != nil {
		res.Status = Failed
		return res, err
	}
	if c.imagesErr != nil {
		res.Status = Failed
		return res, c.imagesErr
	}
	if err := c.judge(res, m, given); err != nil {
		res.Status = Failed
		return res, err
	}
	return c.finish(ctx, res, m)
}

// checkOptions refuses options no conversion can take: a setting's
// path that is not absolute and clean, a layout that does not exist.
func checkOptions(opts Options) error {
	if err := checkFlagPath("--host-project-directory", opts.HostProjectDirectory); err != nil {
		return err
	}
	if err := checkFlagPath("--volume-root", opts.VolumeRoot); err != nil {
		return err
	}
	if opts.Layout != "" && !slices.Contains(declare.Layouts, opts.Layout) {
		return fmt.Errorf("--layout %q: want %s", opts.Layout, strings.Join(declare.Layouts, ", "))
	}
	return nil
}

// load reads the project as docker compose would run it. The
// declarations file may say how (its compose files, env files,
// profiles): it is read first, where the caller did not say. It returns
// the options with those settings filled in.
func load(ctx context.Context, opts Options) (*project.Project, Options, settings, error) {
	opts, st, err := withSettings(opts)
	if err != nil {
		return nil, opts, st, err
	}
	popts := opts.projectOptions()
	if slices.Contains(opts.ConfigFiles, project.StdinName) && opts.Stdin != nil {
		if popts.Stdin, err = project.ReadStdin(opts.Stdin); err != nil {
			return nil, opts, st, err
		}
	}
	l, err := project.Load(ctx, popts)
	if l != nil {
		opts = st.reuse(opts, l.Dir)
	}
	if err != nil && st.parseErr != nil {
		// The settings the file may give were not read.
		err = errors.Join(st.parseErr, err)
	}
	return l, opts, st, err
}

// folderNamed records whether the project is named after its folder (no
// -p, name: or COMPOSE_PROJECT_NAME gave one), and the Docker volumes
// named after it.
func folderNamed(res *Result, l *project.Project, opts Options) {
	if opts.ProjectName != "" || l.Name() != "" || l.NameFromEnvironment {
		return
	}
	res.FolderNamed = true
	for _, key := range slices.Sorted(maps.Keys(l.Compose.Volumes)) {
		if v := l.Compose.Volumes[key]; !bool(v.External) && l.TopLevelValue("volumes", key, "name") == "" {
			res.FolderVolumes = append(res.FolderVolumes, l.Compose.Name+"_"+key)
		}
	}
}

// newConverter reads what the conversion of l needs beside the project
// (declarations, image lock, image table) and settles the module's name
// and settings. A nil converter with the error means the reading
// stopped before anything was built.
func newConverter(l *project.Project, opts, given Options, st settings) (*converter, error) {
	if len(l.Compose.Services) == 0 {
		return nil, noServices(l.Compose)
	}
	decl, declFiles, side, err := declarations(l, opts)
	if err == nil {
		err = checkSettings(st, l.Dir, declFiles, decl)
	}
	if err != nil {
		return nil, err
	}
	if decl, declFiles, err = withDefaults(l, opts, decl, declFiles); err != nil {
		return nil, err
	}
	lock, lockFile, err := readLock(l, opts)
	if err != nil {
		return nil, err
	}
	// The image table's facts of images as a whole (VAR_FILE, VOLUME)
	// and its required modes hold with --strict too; production from its
	// rows does not. The built-in table is parsed once per process.
	facts := opts.Images
	if facts == nil {
		if facts, err = images.Default(); err != nil {
			return &converter{}, err
		}
	}
	c := &converter{l: l, opts: opts, decl: decl, unapplied: unapplied(l, side), declFiles: declFiles, images: opts.Images, facts: facts, fields: newFieldIndex(),
		match: &matcher{decl: decl, env: l.Environment, used: map[*declare.Entry]bool{}}, lock: lock, lockFile: lockFile}
	c.flagsAgainstDefaults(given, st)
	c.module = l.Compose.Name
	if decl != nil && decl.Module != "" {
		c.module = decl.Module
	}
	if !manifest.ValidModule(c.module) {
		return c, fmt.Errorf("module name %q: want a lowercase letter or digit, then lowercase letters, digits, '.', '_' or '-', at most %d bytes", c.module, manifest.MaxModuleLen)
	}
	c.hostDir, c.volumeRoot, c.layout = opts.HostProjectDirectory, opts.VolumeRoot, opts.Layout
	if decl != nil {
		c.hostDir = cmp.Or(c.hostDir, decl.HostProjectDirectory)
		c.volumeRoot = cmp.Or(c.volumeRoot, decl.VolumeRoot)
		c.layout = cmp.Or(c.layout, decl.Layout)
	}
	if c.layout == declare.LayoutNone {
		c.layout = "" // the project's opt-out of a defaults file's layout
	}
	return c, checkRootSettings(opts, decl)
}

// judge runs the rules over the module built, records its sources, header,
// settings and fingerprint, and fills in res what the skeleton and ask
// need: the sources missing declarations and the suggestions.
func (c *converter) judge(res *Result, m *manifest.Module, given Options) error {
	l := c.l
	m.Roots = c.roots()
	c.secretSources()
	c.diags = append(c.diags, rules.RunProject(rules.All(), c.pass())...)
	inputs := slices.Clone(c.declFiles)
	for _, in := range []*inputFile{c.lockFile, c.surveyFile} {
		if in != nil {
			inputs = append(inputs, *in)
		}
	}
	var err error
	if m.Sources, err = sources(l, inputs); err != nil {
		return err
	}
	m.Header = fmt.Sprintf("Module manifest generated by compose2manifest from %s — edit the declarations, not this file.",
		headerSource(l, given))
	c.diags = append(c.diags, rules.Run(builtRules(), m)...)
	res.Diagnostics = sortDiagnostics(c.diags, c.module)
	m.ConvertedWith = RecordedSettings(given, l.Dir)
	if m.Fingerprint, err = c.fingerprint(c.declFiles, res.Diagnostics); err != nil {
		return err
	}
	res.Missing = c.missingList()
	res.Sources = c.sourceList()
	res.UndeclaredAncestors = rules.UndeclaredAncestors(m)
	res.Suggestions = Suggestions{Secrets: c.secretSuggestions(), Uncarried: c.uncarried, Roots: c.missingRoots, Options: c.optionUses()}
	res.Skeleton, res.Decisions = skeleton(c.module, res.Missing, res.Suggestions)
	res.Inline = res.Skeleton
	if n := len(res.Suggestions.Secrets); n > MaxInlineCredentials {
		res.Inline, res.Elided = inlineSkeleton(c.module, res.Missing, res.Suggestions, c.opts.SkeletonFile), n
	}
	res.skeletonFile = c.opts.SkeletonFile
	c.maskResult(res)
	return nil
}

// finish settles the outcome: refused (the module kept as the
// Candidate) when an error was found, else converted, with the manifest
// encoded.
func (c *converter) finish(ctx context.Context, res *Result, m *manifest.Module) (*Result, error) {
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
	if err := ctx.Err(); err != nil {
		res.Status, res.Candidate = Failed, nil
		return res, err
	}
	res.Module = m
	var err error
	if res.Manifest, err = manifest.Encode(m); err != nil {
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
	if why := manifest.PathLengthProblem(p); why != "" {
		return fmt.Errorf("%s %s", flag, why)
	}
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
// It returns the sidecar file read, for the manifest's sources, and its
// declarations alone (nil without one).
func declarations(l *project.Project, opts Options) (*declare.File, []inputFile, *declare.File, error) {
	var ext *declare.File
	for _, x := range l.Extensions(ExtensionKey) {
		d, err := declare.ParseNode(x.File, x.Node)
		if err != nil {
			return nil, nil, nil, err
		}
		ext = declare.Merge(ext, d)
	}
	in, err := sidecar(l.Dir, opts)
	if err != nil || in == nil {
		return ext, nil, nil, err
	}
	var side *declare.File
	if d := opts.Declarations; d != nil && d.parsed != nil && d.parsedAs == l.Rel(in.path) && len(d.Data) == len(in.data) && (len(in.data) == 0 || &d.Data[0] == &in.data[0]) {
		side = d.parsed // these bytes, parsed under this name by withSettings
	} else if side, err = declare.Parse(l.Rel(in.path), in.data); err != nil {
		return nil, nil, nil, err
	}
	if err := hostOverridden(ext, side); err != nil {
		return nil, nil, nil, err
	}
	return declare.Merge(ext, side), []inputFile{*in}, side, nil
}

// unapplied returns the declarations of l's compose files that take no
// effect (rules.Unapplied): an x-compose2manifest of a file that is not
// one of the -f files, and each setting of the -f files'
// x-compose2manifest that the sidecar file side gives another value.
func unapplied(l *project.Project, side *declare.File) []rules.Unapplied {
	var out []rules.Unapplied
	for _, pos := range l.IgnoredExtensions(ExtensionKey) {
		out = append(out, rules.Unapplied{Pos: pos})
	}
	if side == nil {
		return out
	}
	var ext *declare.File
	for _, x := range l.Extensions(ExtensionKey) {
		if d, err := declare.ParseNode(x.File, x.Node); err == nil {
			ext = declare.Merge(ext, d)
		}
	}
	if ext == nil {
		return out
	}
	for _, s := range []struct {
		key                 string
		extValue, sideValue string
		extPos, sidePos     manifest.Pos
	}{
		{"module", ext.Module, side.Module, ext.ModulePos, side.ModulePos},
		{"host_project_directory", ext.HostProjectDirectory, side.HostProjectDirectory, ext.HostProjectDirectoryPos, side.HostProjectDirectoryPos},
		{"volume_root", ext.VolumeRoot, side.VolumeRoot, ext.VolumeRootPos, side.VolumeRootPos},
		{"layout", ext.Layout, side.Layout, ext.LayoutPos, side.LayoutPos},
	} {
		if s.extValue != "" && s.sideValue != "" && s.extValue != s.sideValue {
			out = append(out, rules.Unapplied{Pos: s.extPos, Key: s.key, Value: s.extValue, Winner: s.sideValue, WinnerPos: s.sidePos})
		}
	}
	return out
}

// withDefaults adds to decl what the defaults file opts.DefaultsFile says
// and decl does not (declare.WithDefaults), and the file to the inputs
// declFiles. A defaults file that is not a regular file, is over
// project.MaxInputSize bytes or gives more than defaults may is an error.
func withDefaults(l *project.Project, opts Options, decl *declare.File, declFiles []inputFile) (*declare.File, []inputFile, error) {
	p := opts.DefaultsFile
	if p == "" {
		return decl, declFiles, nil
	}
	p = opts.abs(p)
	d, data, err := readDefaults(p, l.Rel(p))
	if err != nil {
		return nil, nil, err
	}
	return declare.WithDefaults(decl, d), append(slices.Clone(declFiles), inputFile{p, data}), nil
}

// readDefaults reads and parses the defaults file at p, named name in
// errors, refusing an acknowledge item of a field no service has
// (unknownFields); it returns the file and its bytes.
func readDefaults(p, name string) (*declare.File, []byte, error) {
	if fi, err := os.Lstat(p); err == nil && fi.Mode()&os.ModeSymlink != 0 {
		// Never followed: a link at a batch's root could point anywhere
		// on the host (/etc/shadow), whose lines a parse error would show.
		target, _ := os.Readlink(p)
		return nil, nil, fmt.Errorf("defaults file %s is a symbolic link (to %s), not followed: give the file it names with --defaults", name, target)
	}
	data, err := fsread.File("defaults file", p, project.MaxInputSize)
	if err != nil {
		return nil, nil, err
	}
	d, err := declare.ParseDefaults(name, data)
	if err != nil {
		return nil, nil, err
	}
	if err := unknownFields(name, d); err != nil {
		return nil, nil, err
	}
	return d, data, nil
}

// CheckDefaults reads and judges the defaults file opts.DefaultsFile (if
// any) as each conversion with opts would: a batch calls it once before
// its projects, so that a defaults file it cannot use is one error naming
// the file and line, not one per project. The file is named relative to
// opts.WorkingDirectory.
func CheckDefaults(opts Options) error {
	if opts.DefaultsFile == "" {
		return nil
	}
	p := opts.abs(opts.DefaultsFile)
	name := p
	if rel, err := filepath.Rel(opts.WorkingDirectory, p); err == nil && opts.WorkingDirectory != "" {
		name = rel
	}
	d, _, err := readDefaults(p, name)
	if err != nil {
		return err
	}
	return checkRootSettings(Options{VolumeRoot: opts.VolumeRoot}, d)
}

// unknownFields refuses an acknowledge: item of the defaults d for every
// service (*.FIELD) whose FIELD is no service field the converter knows
// (Fields): matching nothing in any one project is no mistake for a
// default, so a typo (*.container_nmae) would otherwise pass unseen.
//
// A top-level item for every NAME of a section (networks.*.external) is
// held to that section's attributes the same way.
func unknownFields(name string, d *declare.File) error {
	known := map[string][]string{}
	for _, f := range Fields() {
		known[f.Section] = append(known[f.Section], f.Name)
	}
	for _, a := range d.Acknowledge {
		if a.Variable != "" || a.Option != "" {
			continue
		}
		section, what := "services", "service field"
		if s, ok := strings.CutSuffix(a.Service, ".*"); ok {
			section, what = s, "attribute of a top-level "+strings.TrimSuffix(s, "s")
		} else if a.Service != "*" {
			continue
		}
		if slices.Contains(known[section], a.Field) {
			continue
		}
		return fmt.Errorf("%s:%d: acknowledge item %s names no %s compose2manifest reports; %sa default must name one (see docs/fields.md)", name, a.Pos.Line, a.String(), what, suggest.Hint(a.Field, known[section]))
	}
	return nil
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
	} else {
		p = opts.abs(p)
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
	// rows are the image table rows each placement matches (imageRow).
	rows map[*placement.Placement]rowMatch
	// secretWalkFields are the fields secretFields walks of each struct
	// type (walkFields).
	secretWalkFields map[reflect.Type][]walkField
	// declFiles are the declarations files read, for sources: and the
	// fingerprint.
	declFiles []inputFile
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
	// filesBy says what chose the compose files: -f or compose_files:.
	filesBy string
	// bindKeys indexes the binds by their key cleaned (holdingBind).
	bindKeys map[string]*placement.Placement
	// mountKeys are the mounts: keys of the defaults file that declare
	// sources nothing else declares (mountDefault).
	mountKeys map[*placement.Placement]string
	opts      Options
	decl      *declare.File
	// lock is the image lock read (nil: none), lockFile its file.
	lock     *imageconfig.Lock
	lockFile *inputFile
	// surveyImages are the image configs the survey recorded, by reference,
	// made into entries once (imageEntry; nil: not found on the host).
	surveyImages map[string]*imageconfig.Entry
	// surveyFile is the survey read from --survey's file, nil for none
	// (or one given in memory): a source of the manifest.
	surveyFile *inputFile
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
	// directories: entry declares; needsPath are the sources layout fhs
	// cannot place where it would (another landed there already, or the
	// module root is kind host): each needs a path.
	missingRoots []MissingRoot
	// producedRoots are the module roots layout fhs produced, where no
	// directories: entry declares one and --strict is off; rootPos is
	// each one's position, its first source's.
	producedRoots []MissingRoot
	rootPos       map[string]manifest.Pos
	needsPath     map[*placement.Placement]bool
	// ownerFrom is, for each source whose owner was produced from a
	// service's owner-changing variables, that evidence (Missing.OwnerFrom).
	ownerFrom map[*placement.Placement]string
	// valueFrom is, for each source, where evidence gave each value of
	// its declaration ("owner", "mode"): what a disagreement names as
	// kept (C2M026).
	valueFrom map[*placement.Placement]map[string]string
	// refusedModes are the modes evidence found that nobody should
	// choose, not carried (Missing.RefusedMode).
	refusedModes map[*placement.Placement]RefusedMode
	diags        []rules.Diagnostic
	mounts       []project.Mount // of the services converted
	placements   []*placement.Placement
	// unplaced are the sources mounted that are not among placements:
	// those of services left out by profiles, and image VOLUMEs no volume
	// mounts (section and key), for what must match a source of the
	// project across all profiles (a survey's entries).
	unplaced  map[[2]string]bool
	uncarried []placement.Field
	unmatched []placement.Unmatched
	missing   []*missing
	fields    fieldIndex
	images    *images.Table // opts.Images, else the built-in table once a row is needed (table)
	imagesErr error
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
	// unapplied are the declarations that take no effect (C2M028).
	unapplied []rules.Unapplied
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
	// noOwner says why evidence gave no owner, outOfVersion why the
	// image table gave no row for the image's version; "" otherwise.
	noOwner, outOfVersion string
	// imageVolume is set for an image VOLUME nothing mounts (C2M024).
	imageVolume bool
	// evidence says where each value known so far came from
	// (Missing.Evidence).
	evidence []string
}

// build converts the loaded project into a module. Once ctx is done it
// stops at the next service or placement and returns what it has, which
// the caller drops.
func (c *converter) build(ctx context.Context) *manifest.Module {
	p := c.l.Compose
	m := &manifest.Module{Version: manifest.Version, Module: c.module}
	names := slices.Sorted(maps.Keys(p.Services))
	sm := c.serviceMounts(ctx, names)
	if ctx.Err() != nil {
		return m
	}
	sm.volumesFrom(p)
	var mounts []project.Mount
	n := 0
	for _, name := range names {
		n += len(sm.byService[name])
	}
	if n > 0 {
		mounts = make([]project.Mount, 0, n)
	}
	for _, name := range names {
		mounts = append(mounts, sm.byService[name]...)
	}
	c.mounts = mounts
	c.acknowledgedOptions(mounts)
	c.disabledKeys()

	hostPaths := c.placeAll(ctx, m, mounts, sm.users)
	if ctx.Err() != nil {
		return m
	}
	for _, s := range groupSources(sm.imageOnly) {
		c.unplacedSource(s)
		c.offerImageVolume(s, sm.users)
	}
	m.Resources = append(m.Resources, c.declaredDirectories()...)
	m.Resources = append(m.Resources, c.rootResources()...)
	m.Resources = append(m.Resources, c.deviceHosts(names, m.Resources)...)
	slices.SortStableFunc(m.Resources, func(a, b manifest.Resource) int {
		return manifest.ComparePaths(a.Path, b.Path)
	})
	// Containers come last, each after the containers it needs, as docker
	// compose starts them: the host applies in the order written. They
	// are built first, since the credentials: they use come before them.
	var containers []manifest.Resource
	for _, name := range startOrder(p) {
		if ctx.Err() != nil {
			return m
		}
		if r := c.container(p.Services[name], sm.byService[name], hostPaths); r != nil {
			containers = append(containers, *r)
		}
	}
	m.Resources = append(m.Resources, c.credentials(names)...)
	m.Resources = append(m.Resources, containers...)
	c.maskComments(m.Resources)
	c.leftOut()
	c.topLevelNotCarried()
	c.jobsNotCarried()
	c.unmatched = append(c.unmatched, c.uncarriedKeys(c.bindVolumeKeys(c.tmpfsKeys(c.match.unused())))...)
	c.unmatched = append(c.unmatched, c.unusedAcks()...)
	c.unmatched = append(c.unmatched, c.unusedCredentials()...)
	c.unmatched = append(c.unmatched, c.unsurveyed()...)
	return m
}

// serviceMounts are the mounts of each service, the users they run as,
// and the image VOLUMEs: those added as anonymous volumes (declared, or
// acknowledged disposable) and those nothing declares.
type serviceMounts struct {
	byService  map[string][]project.Mount
	users      map[string]string
	imageAdded map[string][]project.Mount
	imageOnly  []project.Mount
}

// serviceMounts gathers the mounts of the services names, their image
// VOLUMEs among them.
func (c *converter) serviceMounts(ctx context.Context, names []string) *serviceMounts {
	sm := &serviceMounts{byService: map[string][]project.Mount{}, users: map[string]string{}, imageAdded: map[string][]project.Mount{}}
	for _, name := range names {
		if ctx.Err() != nil {
			return sm
		}
		svc := c.l.Compose.Services[name]
		ms := c.unshadowed(c.l.Mounts(svc), c.l.ConfigMounts(svc, configTarget))
		added, undeclared := c.imageVolumes(svc, ms)
		ms = append(ms, added...)
		sm.imageAdded[name] = added
		sm.imageOnly = append(sm.imageOnly, undeclared...)
		sm.byService[name] = ms
		sm.users[name] = svc.User
	}
	return sm
}

// volumesFrom brings an image VOLUME's anonymous volume to the services
// naming its service in volumes_from, as docker mounts every volume of
// the named container (project.Mounts knows only the compose file's);
// services in start order, so a chain of volumes_from passes it on.
func (sm *serviceMounts) volumesFrom(p *types.Project) {
	for _, name := range startOrder(p) {
		for _, ref := range p.Services[name].VolumesFrom {
			from, mode, _ := strings.Cut(ref, ":")
			if strings.HasPrefix(ref, "container:") {
				continue
			}
			for _, m := range sm.imageAdded[from] {
				if slices.ContainsFunc(sm.byService[name], func(o project.Mount) bool { return o.Target == m.Target }) {
					continue
				}
				if m.Kind == project.Tmpfs {
					// Acknowledged disposable: a tmpfs of from's own,
					// where docker shares one anonymous volume with
					// this service too (C2M010).
					sm.byService[name] = append(sm.byService[name], project.Mount{Service: name, Kind: project.Unsupported, Pos: m.Pos, Target: m.Target,
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
				sm.byService[name] = append(sm.byService[name], m)
				sm.imageAdded[name] = append(sm.imageAdded[name], m)
			}
		}
	}
}

// disabledKeys marks the declaration keys of services left out by
// profiles as used: a key for them is not a typo, nor is one for an image
// VOLUME of theirs.
func (c *converter) disabledKeys() {
	p := c.l.Compose
	for _, name := range slices.Sorted(maps.Keys(p.DisabledServices)) {
		svc := p.DisabledServices[name]
		ms := append(c.l.Mounts(svc), c.l.ConfigMounts(svc, configTarget)...)
		for _, v := range c.uncoveredVolumes(svc, ms) {
			ms = append(ms, project.Mount{Service: name, Kind: project.Anonymous, Target: v.Path})
			c.disposable(name, v.Path)
		}
		c.acknowledgedOptions(ms)
		for _, s := range groupSources(ms) {
			c.match.lookup(s.Section, s.Key)
			c.unplacedSource(s)
		}
	}
}

// placeAll declares every source of mounts, adding its resource to m, and
// returns where each landed (section and key to host path). Every
// placement is known before any is placed: a bind lands inside the bind
// holding it (holdingBind), whichever service mounts it first.
func (c *converter) placeAll(ctx context.Context, m *manifest.Module, mounts []project.Mount, users map[string]string) map[string]string {
	hostPaths := map[string]string{}
	for _, s := range groupSources(mounts) {
		s.Entry = c.match.lookup(s.Section, s.Key)
		if s.Entry == nil {
			var key string
			if s.Entry, key = c.mountDefault(s, users); s.Entry != nil {
				if c.mountKeys == nil {
					c.mountKeys = map[*placement.Placement]string{}
				}
				c.mountKeys[s] = key
			}
		}
		c.placements = append(c.placements, s)
	}
	for _, s := range c.placements {
		if ctx.Err() != nil {
			return hostPaths
		}
		if r := c.declare(s, users); r != nil {
			m.Resources = append(m.Resources, *r)
			hostPaths[s.Section+"\x00"+s.Key] = r.Path
		}
	}
	return hostPaths
}

// mountDefault returns, for a source nothing declares, the defaults
// file's mounts: entry that every mount of it matches (its service's
// image repository, as images.ParseReference normalises it, and its
// target), as the source's own entry, and its key; nil when there is
// none, or the mounts match different ones. A kind: host entry holds for
// binds only. An entry whose owner contradicts the user: its services run
// as (other than root) is not applied: the project's own evidence wins
// over a fleet's answer, and the source is left to decide.
func (c *converter) mountDefault(s *placement.Placement, users map[string]string) (*declare.Entry, string) {
	if c.decl == nil || len(c.decl.Mounts) == 0 {
		return nil, ""
	}
	var found *declare.Entry
	for _, m := range s.Mounts {
		svc, ok := c.l.Compose.Services[m.Service]
		if !ok {
			return nil, ""
		}
		repo, _ := images.ParseReference(svc.Image)
		var match *declare.Entry
		for i := range c.decl.Mounts {
			e := &c.decl.Mounts[i]
			im, target, _ := declare.CutMountKey(e.Key)
			if target == m.Target {
				if r, _ := images.ParseReference(im); r == repo {
					match = e
					break
				}
			}
		}
		if match == nil || found != nil && found != match {
			return nil, ""
		}
		found = match
	}
	if found == nil || (found.Kind == declare.KindHost || found.Kind == declare.KindFile) && s.Section != declare.SectionBinds {
		return nil, "" // a named or anonymous volume is a directory of its own
	}
	if user, _, _ := userOwner(s, users); user != "" && found.Owner != "" && user != found.Owner && !rules.RootUser(user) {
		return nil, ""
	}
	e := *found
	e.Key = s.Key
	return &e, found.Key
}

// declaredDirectories are the resources of the declarations'
// directories: (parents no volume mounts), kind host for one another
// module or the host owns.
func (c *converter) declaredDirectories() []manifest.Resource {
	if c.decl == nil {
		return nil
	}
	var out []manifest.Resource
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
		out = append(out, r)
	}
	return out
}

// declare returns the resource declaring s on the target host, or nil when
// it cannot be placed or has no declaration; either way it reports why.
// It decides in stages, each filling its part of one sourceFacts: what is
// supplied and what the checkout (or the legacy host's survey) shows,
// where the source lands, its kind, then its owner, mode and intent.
func (c *converter) declare(s *placement.Placement, users map[string]string) *manifest.Resource {
	f := c.newFacts(s)
	if !c.locate(f, users) {
		return nil
	}
	c.decideKind(f)
	if f.r.Kind == manifest.KindHost {
		if f.e != nil {
			f.r.Note = f.e.Note
		}
		f.r.Comment = strings.Join(f.provenance, "; ")
		return f.r
	}
	return c.decideOwnership(f, users)
}

// sourceFacts are what convert knows of one placement while it decides
// it, each fact filled once by the stage that learns it.
type sourceFacts struct {
	s *placement.Placement
	// e is the supplied declaration, nil when there is none.
	e *declare.Entry
	// r is the resource being built.
	r *manifest.Resource
	// ev is what the checkout, or the legacy host's survey, shows of a
	// bind source (project.Evidence, the one file evidence ask takes too).
	ev project.SourceEvidence
	// provenance says where each value came from, for the comment.
	provenance []string
	// legacy is where the data lives under Docker today, "" for a bind
	// in place.
	legacy string
}

// newFacts starts the facts of s: the resource at its first mount (at
// its declaration when there is one) and what the checkout shows.
func (c *converter) newFacts(s *placement.Placement) *sourceFacts {
	first := s.First()
	f := &sourceFacts{s: s, e: s.Entry, r: &manifest.Resource{Kind: manifest.KindDirectory, Pos: first.Pos,
		Origin: &manifest.Origin{Source: first.Display(), Services: s.Services()}}}
	if f.e != nil {
		f.r.Pos = f.e.Pos
		from := "supplied: " + f.e.Pos.File
		if k := c.mountKeys[s]; k != "" {
			from += " (mounts: " + k + ")"
		}
		f.provenance = append(f.provenance, from)
	}
	if s.Section == declare.SectionBinds {
		f.ev = c.surveyEvidence(s, c.evidence(s.Key))
	}
	// A link out of the project names, on the target host, a place the
	// checkout does not show: only kind host or a path of its own settle
	// where the source is.
	if f.ev.Outside != "" && (f.e == nil || (f.e.Kind != declare.KindHost && f.e.Path == "")) {
		s.LinkOutside = f.ev.Outside
	}
	return f
}

// noKind reports whether no kind is supplied.
func (f *sourceFacts) noKind() bool { return f.e == nil || f.e.Kind == declare.KindNone }

// locate decides where the source lands on the target host. It reports
// false when it has no location (C2M013: the skeleton still offers what
// is known of it) or an invalid one.
func (c *converter) locate(f *sourceFacts, users map[string]string) bool {
	s, r := f.s, f.r
	hostPath, legacy, placeErr := c.place(s)
	f.legacy = legacy
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
		if f.ev.Resolved != "" && f.ev.Outside == "" {
			s.Real, r.Origin.Resolved = f.ev.Resolved, f.ev.Resolved
		}
	}
	if placeErr != nil {
		s.Unplaced = placeErr
		c.offerUnplaced(f, users, rules.UnplacedMessage(placeErr))
		return false
	}
	if !manifest.ValidPath(hostPath) {
		s.Unplaced = &placement.Unplaced{Why: placement.WhyInvalidPath, What: s.First().Source, At: hostPath}
		return false
	}
	r.Path = hostPath
	return true
}

// offerUnplaced offers, for a source without a location, what is known of
// it: supplied, or produced from evidence, for the skeleton and ask.
func (c *converter) offerUnplaced(f *sourceFacts, users map[string]string, placeErr string) {
	s, e, r := f.s, f.e, f.r
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
	if f.noKind() && !c.opts.Strict && f.ev.Kind == declare.KindFile {
		r.Kind = manifest.KindFile
	}
	if f.noKind() {
		s.KindUnknown = c.kindUnknown(s, f.ev)
	}
	conflict := ""
	if !c.opts.Strict && r.Kind != manifest.KindHost {
		conflict = c.produce(s, r, e, users, &f.provenance)
		c.surveyValues(s, r, &f.provenance)
		if conflict == "" {
			c.layerValues(s, r, users, &f.provenance)
		}
	}
	reason := placeErr
	if conflict != "" {
		reason += "; no owner produced: " + conflict
	}
	m := c.addMissingResource(s, r, reason)
	m.noOwner, m.evidence = conflict, producedOnly(f.provenance)
}

// decideKind sets the resource's kind: supplied (and held against the
// evidence, C2M004), or produced from evidence, directory by default.
func (c *converter) decideKind(f *sourceFacts) {
	s, e, ev := f.s, f.e, f.ev
	kind := declare.KindNone
	if e != nil {
		kind = e.Kind
	}
	switch {
	case kind != declare.KindNone:
		s.KindConflict = c.kindConflict(f, kind)
	case c.producesHost(s) != "":
		kind = declare.KindHost
		s.HostProduced = true
		f.provenance = append(f.provenance, "produced: "+c.producesHost(s))
	case ev.Kind == declare.KindFile && !c.opts.Strict:
		kind = declare.KindFile
		if e != nil {
			f.provenance = append(f.provenance, "kind produced: "+evidenceWhat(ev))
		}
	default:
		kind = declare.KindDirectory
		c.directoryKind(f)
	}
	f.r.Kind = manifest.Kind(kind)
	if f.legacy != "" {
		f.provenance = append(f.provenance, "legacy: "+f.legacy)
	}
}

// host reports whether the source of s is kind: host, declared so or
// produced (producesHost): the host's own, never the module's place.
func (c *converter) host(s *placement.Placement) bool {
	if s.Entry != nil {
		return s.Entry.Kind == declare.KindHost
	}
	return c.producesHost(s) != ""
}

// producesHost says why evidence makes the undeclared bind source of s
// kind: host, or "": a well-known host path (project.WellKnownHost), or a
// system directory (rules.SystemPaths: /, /etc, /var/log) that every
// service mounts read-only, which no module may own anywhere: the host's
// own, used where it is, as compose mounts it.
func (c *converter) producesHost(s *placement.Placement) string {
	if s.Entry != nil || c.opts.Strict || s.Section != declare.SectionBinds || !strings.HasPrefix(s.Key, "/") {
		return ""
	}
	if project.WellKnownHost(s.Key) {
		return "well-known host path"
	}
	if writable(s) {
		return ""
	}
	p := path.Clean(s.Key)
	if slices.Contains(rules.SystemPaths(), p) {
		return "a system directory every service mounts read-only"
	}
	// A tree the host manages (its logs, Docker's state), read where it
	// is: a frozen copy would be no use. A credential file, a login's
	// dotfiles or the host's keys stay a person's choice (ask suggests
	// host): reading them is for a person to see.
	why, ok := rules.Ownable(p, c.module, nil)
	if ok || (why != "managed by the host" && !strings.HasPrefix(why, "under ")) || project.SecretFileName(p) {
		return ""
	}
	for _, t := range []string{"/root", "/etc/ssh", "/etc/ssl", "/etc/pki", "/etc/sudoers.d", "/etc/security", "/etc/pam.d"} {
		if p == t || strings.HasPrefix(p, t+"/") {
			return ""
		}
	}
	return why + ", every service mounts read-only"
}

// kindConflict says what contradicts a supplied kind (C2M004): the
// checkout, a trailing slash, or the image table; "" when nothing does.
func (c *converter) kindConflict(f *sourceFacts, kind declare.Kind) string {
	s, ev, first := f.s, f.ev, f.s.First()
	switch {
	case kind == declare.KindHost && s.Section == declare.SectionVolumes:
		if v, ok := c.l.Compose.Volumes[s.Key]; ok && !bool(v.External) && c.l.TopLevelValue("volumes", s.Key, "name") == "" {
			return fmt.Sprintf("declared kind: host, but volume %s is this project's own (not external, no name:), which no other project mounts: the data in it would be copied by no one; declare its owner, mode and intent", s.Key)
		}
	case kind == declare.KindHost:
	case ev.Kind != declare.KindNone && ev.Kind != kind:
		return fmt.Sprintf("declared kind: %s, but %s is %s", kind, first.Source, evidenceWhat(ev))
	case kind == declare.KindFile && s.Section == declare.SectionBinds && strings.HasSuffix(first.Source, "/"):
		return fmt.Sprintf("declared kind: file, but the compose file writes %s with a trailing slash, a directory", first.Source)
	case kind == declare.KindFile && s.Section != declare.SectionBinds:
		if row, ok, _ := c.imageRow(s); ok && row.Kind != "" && row.Kind != string(kind) {
			return fmt.Sprintf("declared kind: %s, but image %s keeps a %s at %s (%s:%d)", kind, row.Repository, row.Kind, row.Path, images.TableFile, row.Line)
		}
		return fmt.Sprintf("declared kind: file, but %s is a directory Docker makes: kind: file is for binds only", describeSource(s))
	default:
		if row, ok, _ := c.imageRow(s); ok && row.Kind != "" && row.Kind != string(kind) {
			return fmt.Sprintf("declared kind: %s, but image %s keeps a %s at %s (%s:%d)", kind, row.Repository, row.Kind, row.Path, images.TableFile, row.Line)
		}
	}
	return ""
}

// directoryKind records why a source without a supplied kind is a
// directory, or that nothing tells (C2M004, KindUnknown).
func (c *converter) directoryKind(f *sourceFacts) {
	s, ev, first := f.s, f.ev, f.s.First()
	why := c.kindUnknown(s, ev)
	note := ""
	switch {
	case why != nil:
		s.KindUnknown = why
	case ev.Kind == declare.KindDirectory && (ev.Link != "" || ev.Surveyed != "") && !c.opts.Strict:
		note = "kind produced: " + evidenceWhat(ev)
	case c.rowKind(s):
	case ev.Absent && outsideProject(s.Key):
		// Evidence is taken inside the project only.
		note = "kind directory: " + first.Source + " lies outside the project, which is not looked into"
	case ev.Absent:
		note = "kind directory: " + first.Source + " absent from the checkout"
	case ev.Outside != "":
		note = "kind directory: " + first.Source + " a link out of the checkout"
	}
	if note != "" {
		f.provenance = append(f.provenance, note)
	}
}

// decideOwnership sets owner, mode and intent, supplied or produced from
// evidence, and returns the resource; nil when evidence does not give all
// three for a source nothing declares (C2M001), or the module may not own
// it where it is.
func (c *converter) decideOwnership(f *sourceFacts, users map[string]string) *manifest.Resource {
	s, e, r := f.s, f.e, f.r
	if e != nil {
		r.Owner, r.Mode, r.Intent, r.Note = e.Owner, e.Mode, manifest.Intent(e.Intent), e.Note
	}
	conflict := ""
	if !c.opts.Strict {
		conflict = c.produce(s, r, e, users, &f.provenance)
		// What the data has today (a survey) before what docker would
		// give a new volume (the image's layers).
		c.surveyValues(s, r, &f.provenance)
		if conflict == "" {
			c.layerValues(s, r, users, &f.provenance)
			c.checkoutValues(f)
		}
	}
	complete := r.Owner != "" && r.Mode != "" && r.Intent != ""
	switch {
	case e == nil && complete:
		if why := c.mustMove(s); why != "" {
			// Produced whole, but the module may not own the source
			// where it is: the skeleton and ask offer the produced
			// values, and a person chooses where the data goes (a path
			// of its own, or layout fhs's place) or kind: host.
			s.Undeclared = &placement.Undeclared{NotOwnable: why, Source: s.First().Source, Layout: c.layout == declare.LayoutFHS}
			if h := c.holdingBind(s); h != nil {
				s.Undeclared.Holder = h.Key
			}
			c.addMissingResource(s, r, rules.UndeclaredMessage(s.Undeclared)).evidence = producedOnly(f.provenance)
			return nil
		}
	case e == nil:
		// Without a supplied declaration, evidence alone must give all
		// three values.
		s.Undeclared = undeclared(r, conflict, c.outOfVersion(s))
		m := c.addMissingResource(s, r, rules.UndeclaredMessage(s.Undeclared))
		m.noOwner, m.outOfVersion = s.Undeclared.NoOwner, s.Undeclared.OutOfVersion
		m.evidence = producedOnly(f.provenance)
		return nil
	case !complete:
		reason := "incomplete declaration"
		if conflict != "" {
			reason += "; no owner produced: " + conflict
		}
		m := c.addMissingResource(s, r, reason)
		m.noOwner, m.evidence = conflict, producedOnly(f.provenance)
	}
	if e != nil && complete && (s.KindUnknown != nil || s.LinkOutside != "") {
		// Supplied complete but for its kind or its location: the
		// skeleton and ask still offer it.
		why := s.LinkOutside
		if s.KindUnknown != nil {
			why = rules.KindUnknownMessage(s.KindUnknown)
		}
		c.addMissingResource(s, r, why)
	}
	if e != nil && e.AcknowledgeMode && r.Mode != "" {
		f.provenance = append(f.provenance, rules.AckModeNote(r.Mode))
	}
	if e == nil && r.Kind == manifest.KindFile && f.ev.Kind == declare.KindFile {
		f.provenance = append(f.provenance, "kind produced: "+evidenceWhat(f.ev))
	} else if e == nil && r.Kind == manifest.KindFile {
		f.provenance = append(f.provenance, "kind produced: a regular file in the project")
	}
	r.Comment = strings.Join(f.provenance, "; ")
	return r
}

// producedOnly returns the items of a provenance that say where a value
// was produced from ("owner produced: service \"db\" user: 70:70"), not
// why one was not.
func producedOnly(provenance []string) []string {
	var out []string
	for _, p := range provenance {
		if strings.Contains(p, "produced:") && !strings.HasPrefix(p, "no ") {
			out = append(out, p)
		}
	}
	return out
}

// undeclared records what a source nothing declares still lacks
// (C2M001): the values evidence produced and those missing, why no owner
// was produced, and an image tag outside the table's versions.
func undeclared(r *manifest.Resource, conflict, outOfVersion string) *placement.Undeclared {
	u := &placement.Undeclared{NoOwner: conflict, OutOfVersion: outOfVersion}
	if r.Owner != "" {
		u.Produced = append(u.Produced, "owner "+r.Owner)
	}
	if r.Mode != "" {
		u.Produced = append(u.Produced, "mode "+r.Mode)
	}
	if r.Intent != "" {
		u.Produced = append(u.Produced, "intent "+string(r.Intent))
	}
	if len(u.Produced) > 0 {
		u.Missing = missingFields(r)
	}
	return u
}

// produce fills the values r lacks from evidence: owner from the services'
// user:, and kind, owner, mode and intent from the image table. It appends
// what it produced to provenance and returns why an owner was not
// produced when evidence conflicted.
func (c *converter) produce(s *placement.Placement, r *manifest.Resource, e *declare.Entry, users map[string]string, provenance *[]string) string {
	if r.Owner != "" && e != nil && e.Owner != "" && r.Intent != manifest.IntentConfig && writable(s) {
		// A supplied owner the services' user: contradicts: the process
		// writes as a user the owner and mode do not let write (C2M026).
		// Config is what the software only reads, wherever it mounts it.
		if user, from, _ := userOwner(s, users); user != "" && !mayWrite(user, r.Owner, r.Mode) {
			*provenance = append(*provenance, fmt.Sprintf("%s, not %s", from, r.Owner))
			c.disagree(s, "owner", r.Owner, user, from)
		}
	}
	o := c.ownerEvidence(s, r, users)
	if o.user != "" {
		r.Owner = o.user
		*provenance = append(*provenance, "owner produced: "+o.userEvidence)
		c.setFrom(s, "owner", o.userEvidence)
	}
	ownerFromRow := false
	if o.rowOK {
		ownerFromRow = c.fromRow(s, r, e, o, provenance)
	} else if r.Owner == "" && o.conflict == "" {
		ownerFromRow = c.everyVersionOwner(s, r, users, provenance)
	}
	if o.conflict == "" {
		// The image's own config (the lock) says who its process runs as.
		c.configOwner(s, r, provenance, ownerFromRow)
		c.bindConfigOwner(s, r, provenance)
	}
	return o.conflict
}

// writable reports whether a service mounts the source of s writable.
func writable(s *placement.Placement) bool {
	for _, m := range s.Mounts {
		if !m.ReadOnly {
			return true
		}
	}
	return false
}

// mayWrite reports whether the process of user ("UID:GID") may write to
// a path of owner and mode (octal; "" for not known yet), as the kernel
// decides: by the owner's bits (u+w) when it is the owner, else by the
// group's (g+w) when its group is the path's, else by everyone's (o+w);
// a mode not known yet lets the owner write. Root may write anywhere.
func mayWrite(user, owner, mode string) bool {
	uid, gid, _ := strings.Cut(user, ":")
	ouid, ogid, _ := strings.Cut(owner, ":")
	if uid == "0" {
		return true
	}
	m, err := strconv.ParseUint(mode, 8, 32)
	switch {
	case err != nil:
		return uid == ouid
	case uid == ouid:
		return m&0o200 != 0
	case gid == ogid:
		return m&0o020 != 0
	}
	return m&0o002 != 0
}

// ownerFacts are what evidence says of who owns a source: the services'
// user:, the image table row (its owner remapped by the variables the
// image documents, envEvidence saying which), and why no owner can be
// produced when they disagree.
type ownerFacts struct {
	user, userEvidence string
	row                images.Row
	rowOK              bool
	envEvidence        string
	conflict           string
}

// ownerEvidence gathers ownerFacts for s, for a resource r whose owner is
// not supplied (or is: then only the row counts).
func (c *converter) ownerEvidence(s *placement.Placement, r *manifest.Resource, users map[string]string) ownerFacts {
	var o ownerFacts
	if r.Owner == "" {
		o.user, o.userEvidence, o.conflict = userOwner(s, users)
	}
	// Wherever the source is (a named volume, a relative, absolute or ~
	// bind), the image's row says what the directory the container
	// mounts must be: production is never withheld (issue 20). A source
	// that must move keeps its entry in the skeleton, prefilled
	// (mustMove).
	var rowConflict string
	o.row, o.rowOK, rowConflict = c.imageRow(s)
	if rowConflict != "" && o.conflict == "" {
		o.conflict = rowConflict
	}
	row := &o.row
	// Started as root, the entrypoint of every service mounting it may
	// change to the image's own user (postgres's gosu), as the table says.
	stepDown := c.allStepDown(s, users)
	// The owner-changing variables the image documents (PUID, USER_UID)
	// remap its user: where a service sets them, they give the owner, not
	// the row's default.
	if o.rowOK && row.Owner != "" {
		switch owner, evidence, why, _ := c.envOwner(s, users); {
		case why != "":
			if o.conflict == "" {
				o.conflict = why
			}
			row.Owner = ""
		case owner != "":
			row.Owner, o.envEvidence = owner, evidence
		}
	}
	// A variable the row names as changing its owner for this path alone
	// (docker-mailserver's DMS_VMAIL_UID), set by a service mounting it:
	// the row's owner is then no evidence, and the value is not known to
	// be all it changes.
	if o.rowOK && row.Owner != "" && len(row.OwnerUnless) > 0 {
		if why := c.ownerUnless(s, *row); why != "" {
			if o.conflict == "" {
				o.conflict = why
			}
			row.Owner, o.envEvidence = "", ""
		}
	}
	if o.user != "" && o.rowOK && row.Owner != "" && row.Owner != o.user {
		if rules.RootUser(o.user) && stepDown != "" {
			// The row's owner holds (below).
			o.user, o.userEvidence = "", ""
		} else if rules.RootUser(o.user) {
			// Started as root: some entrypoints change to the image's
			// own user as they do without user: (postgres's gosu), others
			// run as root (grafana, prometheus); where the table does not
			// say which, neither owner is evidence.
			o.conflict = fmt.Sprintf("%s runs as root, and whether image %s (%s:%d) then changes to its own user %s is not known", o.userEvidence, row.Repository, images.TableFile, row.Line, row.Owner)
			o.user, o.userEvidence = "", ""
			row.Owner = ""
		} else {
			// A process started as another user cannot become the
			// image's: it runs as user:, which must own what it writes
			// (the row's mode and intent still hold).
			o.userEvidence += fmt.Sprintf(" (not image %s's %s: %s:%d)", row.Repository, row.Owner, images.TableFile, row.Line)
			row.Owner = ""
		}
	}
	if !o.rowOK && o.user == "" && o.conflict == "" && r.Owner == "" && !c.hostOwned(s) {
		// No row describes the path, but the image's owner-changing
		// variables say who its process runs as, and it writes what it
		// mounts as them, as a process of user: does (linuxserver.io:
		// "ensure any volume directories on the host are owned by the
		// same user you specify").
		switch owner, evidence, why, all := c.envOwner(s, users); {
		case why != "":
			o.conflict = why
		case owner != "" && !all:
			o.conflict = evidence + ", but not every service mounting it runs as them"
		case owner != "":
			o.user, o.userEvidence = owner, evidence
			c.noteOwnerFrom(s, evidence)
		}
	}
	if o.rowOK && row.Owner != "" {
		// A user: that is not the full numeric UID:GID still says the
		// process does not run as the image's user when it names another
		// uid, or a user the table cannot vouch for.
		if why := userContradicts(s, users, row.Owner, c.stepsDown); why != "" {
			if o.conflict == "" {
				// Else the services' user:s disagree among themselves,
				// which is the reason to give (userOwner).
				o.conflict = fmt.Sprintf("%s, but image %s (%s:%d) runs as %s", why, row.Repository, images.TableFile, row.Line, row.Owner)
			}
			row.Owner = ""
		} else if who := c.otherWriter(s, users, row.Owner); who != "" {
			o.conflict = fmt.Sprintf("image %s (%s:%d) runs as %s, but %s", row.Repository, images.TableFile, row.Line, row.Owner, who)
			row.Owner = ""
		} else if stepDown != "" && o.envEvidence == "" {
			o.envEvidence = stepDown + fmt.Sprintf(", %s, as image table row %s says (%s:%d)", row.Owner, row.Named(), images.TableFile, row.Line)
		}
	}
	return o
}

// ownerUnless returns why the owner of row does not hold for s: a
// service mounting s sets one of the variables the row names under
// owner_unless to a value ("service \"mail\" environment DMS_VMAIL_UID=1000
// changes the owner 5000:5000 image table row … gives"), or ""
// (images.Row.OwnerChangedBy).
func (c *converter) ownerUnless(s *placement.Placement, row images.Row) string {
	for _, name := range s.Services() {
		svc, ok := c.l.Compose.Services[name]
		if !ok {
			continue
		}
		if v, val, ok := row.OwnerChangedBy(environment(svc)); ok {
			return fmt.Sprintf("service %q environment %s=%s changes the owner %s that image table row %s gives (%s:%d)", name, v, val, row.Owner, row.Named(), images.TableFile, row.Line)
		}
	}
	return ""
}

// hostOwned reports whether s is an absolute bind source no module may
// own anywhere (a system directory, a tree the host manages, a login's
// dotfiles: rules.Ownable's reasons but "outside"), or a folder of /etc
// other than the module's: /usr/src and /etc/wireguard stay the host's,
// whatever user the process runs as.
func (c *converter) hostOwned(s *placement.Placement) bool {
	if s.Section != declare.SectionBinds || !strings.HasPrefix(s.Key, "/") {
		return false
	}
	p := path.Clean(s.Key)
	why, ok := rules.Ownable(p, c.module, nil)
	// Under /etc, only /etc/MODULE may be the module's: another folder
	// there is the host's configuration of some program (/etc/wireguard).
	return !ok && (why != rules.Outside || strings.HasPrefix(p, "/etc/"))
}

// otherWriter names a service that mounts s writable and is not known
// to run as owner: its image matches no row of the table with that
// owner at its target, and its user: is not owner. The row of another
// service's image is then no evidence of who writes there (an uploader
// beside sonarr). "" when every writer runs as owner.
func (c *converter) otherWriter(s *placement.Placement, users map[string]string, owner string) string {
	t := c.table()
	for _, m := range s.Mounts {
		svc, ok := c.l.Compose.Services[m.Service]
		if !ok || m.ReadOnly || users[m.Service] == owner {
			continue
		}
		if row, ok := t.MatchFor(svc.Image, m.Target, environment(svc)); ok && (row.Owner == owner || row.Owner != "" && c.remapsTo(m.Service, svc.Image, owner)) {
			continue
		}
		if _, ok := t.OwnerOutOfVersion(svc.Image, m.Target); ok {
			continue // held by everyVersionOwner
		}
		return fmt.Sprintf("service %q also mounts it writable, and is not known to run as %s", m.Service, owner)
	}
	return ""
}

// environment returns the lookup images.Table.RunAs takes for the
// environment of svc, interpolated: a variable without a value (KEY
// alone) is unset.
func environment(svc types.ServiceConfig) func(string) (string, bool) {
	return func(k string) (string, bool) {
		v, ok := svc.Environment[k]
		if !ok || v == nil {
			return "", false
		}
		return *v, true
	}
}

// remapsTo reports whether service, of image ref, runs as owner by the
// owner-changing variables the image documents (images.Table.RunAs).
func (c *converter) remapsTo(service, ref, owner string) bool {
	svc, ok := c.l.Compose.Services[service]
	if !ok {
		return false
	}
	got, _, _, ok, err := c.table().RunAs(ref, environment(svc))
	return ok && err == nil && got == owner
}

// fromRow fills the kind, owner, mode and intent r lacks from the image
// table row of o, and says so in provenance. It reports whether the owner
// came from the row's own owner (not remapped by variables).
func (c *converter) fromRow(s *placement.Placement, r *manifest.Resource, e *declare.Entry, o ownerFacts, provenance *[]string) bool {
	row := o.row
	rowFrom := fmt.Sprintf("image table row %s (%s:%d)", row.Named(), images.TableFile, row.Line)
	var fields []string
	if r.Owner == "" && row.Owner != "" && o.envEvidence != "" {
		r.Owner = row.Owner
		*provenance = append(*provenance, "owner produced: "+o.envEvidence)
		c.noteOwnerFrom(s, o.envEvidence)
		c.setFrom(s, "owner", o.envEvidence)
	} else if r.Owner == "" && row.Owner != "" {
		r.Owner = row.Owner
		fields = append(fields, "owner")
		c.setFrom(s, "owner", rowFrom)
	}
	if r.Mode == "" && row.Mode != "" {
		r.Mode = row.Mode
		fields = append(fields, "mode")
		c.setFrom(s, "mode", rowFrom)
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
		if slices.Contains(fields, "mode") && row.ModeBasis != "" {
			basis = ", mode " + row.ModeBasis
		}
		*provenance = append(*provenance, fmt.Sprintf("%s produced: image table row %s (%s:%d%s)",
			strings.Join(fields, ", "), row.Named(), images.TableFile, row.Line, basis))
	}
	return slices.Contains(fields, "owner")
}

// noteOwnerFrom records the evidence the owner of s was produced from.
func (c *converter) noteOwnerFrom(s *placement.Placement, evidence string) {
	if c.ownerFrom == nil {
		c.ownerFrom = map[*placement.Placement]string{}
	}
	c.ownerFrom[s] = evidence
}

// mustMove says why an undeclared absolute bind source may not be owned
// where it is (rules.Ownable: a system path, a login's home, outside
// every place a module may own), or "". Such a source, though its owner,
// mode and intent were produced, needs a person's choice: where its data
// moves, or kind: host.
func (c *converter) mustMove(s *placement.Placement) string {
	if s.Section != declare.SectionBinds || !strings.HasPrefix(s.Key, "/") {
		return ""
	}
	if h := c.holdingBind(s); h != nil {
		// Inside another bind it goes where that one goes: it moves
		// with an undeclared one that must move, which is offered
		// beside it; once that is declared, place puts it inside its
		// place.
		if h.Entry != nil {
			return ""
		}
		return c.mustMove(h)
	}
	var roots []string
	for _, r := range c.roots() {
		roots = append(roots, r.Path)
	}
	why, ok := rules.Ownable(s.Key, c.module, roots)
	if ok {
		return ""
	}
	return why
}

// everyVersionOwner gives r the owner of the image table row its mounts
// match but for the row's major-version bound, where that owner holds in
// every version (images.Table.OwnerOutOfVersion: postgres:latest's data
// directory is 999:999 whichever version runs), and reports whether it
// did. Every mount must match such a row with the same owner, and no
// service's user: may run another uid; the row's mode and intent, which
// hold only up to its bound, are not produced.
func (c *converter) everyVersionOwner(s *placement.Placement, r *manifest.Resource, users map[string]string, provenance *[]string) bool {
	t := c.table()
	var found images.Row
	for _, m := range s.Mounts {
		svc, ok := c.l.Compose.Services[m.Service]
		if !ok {
			return false
		}
		row, ok := t.OwnerOutOfVersion(svc.Image, m.Target)
		if !ok || (found.Owner != "" && row.Owner != found.Owner) {
			return false
		}
		found = row
	}
	if found.Owner == "" || userContradicts(s, users, found.Owner, c.stepsDown) != "" {
		return false
	}
	from := fmt.Sprintf("image table row %s (%s:%d), the owner in every version", found.Named(), images.TableFile, found.Line)
	if root := c.allStepDown(s, users); root != "" {
		from += "; " + root
	}
	r.Owner = found.Owner
	*provenance = append(*provenance, "owner produced: "+from)
	c.setFrom(s, "owner", from)
	return true
}

// envOwner returns the owner the services mounting s run their image's
// process as by the owner-changing variables the image table names for
// the image (images.Table.RunAs), and the evidence for it: "service
// \"gitea\" environment USER_UID=1001 (image gitea/gitea runs as them:
// table.yaml:LINE)". A service with user: is left out: its user: is the
// evidence, and the images named do not remap a user they do not start
// as. It returns why no owner can be produced when a value is not an id
// or two services give different owners; all "" when no service sets
// such a variable. all reports whether every service mounting s gave
// the owner.
func (c *converter) envOwner(s *placement.Placement, users map[string]string) (owner, evidence, why string, all bool) {
	t := c.table()
	var evidences []string
	services := s.Services()
	for _, svcName := range services {
		svc, ok := c.l.Compose.Services[svcName]
		if !ok || users[svcName] != "" {
			continue
		}
		o, row, set, ok, err := t.RunAs(svc.Image, environment(svc))
		if !ok {
			continue
		}
		what := fmt.Sprintf("service %q environment %s (image %s runs as them: %s:%d)", svcName, strings.Join(set, ", "), row.Repository, images.TableFile, row.Line)
		if err != nil {
			return "", "", fmt.Sprintf("%s, but %v", what, err), false
		}
		if owner != "" && o != owner {
			return "", "", fmt.Sprintf("%s gives %s, but %s gives %s", evidences[0], owner, what, o), false
		}
		owner = o
		evidences = append(evidences, what)
	}
	return owner, strings.Join(evidences, "; "), "", len(evidences) == len(services)
}

// userContradicts returns why a service mounting s runs as someone other
// than owner ("UID:GID"), or "": a user: with another uid or gid, or a
// user name, which the table cannot map to a uid, or root (uid 0, or the
// name root), which the image's entrypoint may or may not leave.
//
// A service started as root whose image's entrypoint then runs as the
// image's own user (stepsDown reports evidence) runs as owner.
func userContradicts(s *placement.Placement, users map[string]string, owner string, stepsDown func(service string) string) string {
	ouid, ogid, _ := strings.Cut(owner, ":")
	for _, svc := range s.Services() {
		u := users[svc]
		if u == "" {
			continue
		}
		uid, gid, hasGID := strings.Cut(u, ":")
		switch {
		case rules.RootUser(u) && stepsDown(svc) != "":
			continue
		case rules.RootUser(u):
			// Root: some entrypoints then change to the image's own user
			// (postgres's gosu), others run as root (grafana): not known.
			return fmt.Sprintf("service %q user: %s runs as root, and whether the image's entrypoint then changes to its own user is not known", svc, u)
		case !numeric(uid):
			return fmt.Sprintf("service %q has user: %s, a name the image table cannot map to a uid", svc, u)
		case uid != ouid || (hasGID && numeric(gid) && gid != ogid):
			return fmt.Sprintf("service %q user: %s", svc, u)
		case hasGID && gid == "":
			return fmt.Sprintf("service %q has user: %s, whose empty group docker takes from the image's /etc/passwd (0 when it has none)", svc, u)
		case hasGID && !numeric(gid):
			return fmt.Sprintf("service %q has user: %s, a group name the image table cannot map to a gid", svc, u)
		}
	}
	return ""
}

// stepsDown returns, for a service started as root (user: 0, 0:GID,
// root or root:GROUP), the evidence that its image's entrypoint then runs
// the software as the image's own user (images.Table.StepsDown: its
// command is the image's own or starts with the program the row names,
// and it sets no entrypoint:), or "".
func (c *converter) stepsDown(service string) string {
	svc, ok := c.l.Compose.Services[service]
	if !ok {
		return ""
	}
	if !rules.RootUser(svc.User) {
		return ""
	}
	row, ok := c.table().StepsDown(svc.Image, svc.Command, svc.Entrypoint != nil)
	if !ok {
		return ""
	}
	return fmt.Sprintf("service %q user: %s, and image %s's entrypoint, started as root, runs the server as the image's own user (%s:%d)", service, svc.User, row.Repository, images.TableFile, row.Line)
}

// allStepDown returns the evidence that every service mounting s that is
// started as root runs as its image's own user (stepsDown), joined, or ""
// when one does not or none is started as root.
func (c *converter) allStepDown(s *placement.Placement, users map[string]string) string {
	var evidences []string
	for _, svc := range s.Services() {
		if !rules.RootUser(users[svc]) {
			continue
		}
		e := c.stepsDown(svc)
		if e == "" {
			return ""
		}
		evidences = append(evidences, e)
	}
	return strings.Join(evidences, "; ")
}

// imageRow returns the image table row that the mounts of s match, or why
// two rows disagree: looked up once per placement and kept (c.rows).
func (c *converter) imageRow(s *placement.Placement) (images.Row, bool, string) {
	if got, ok := c.rows[s]; ok {
		return got.row, got.ok, got.conflict
	}
	row, ok, conflict := c.matchRow(s)
	if c.rows == nil {
		c.rows = map[*placement.Placement]rowMatch{}
	}
	c.rows[s] = rowMatch{row, ok, conflict}
	return row, ok, conflict
}

// rowMatch is the image table row a placement's mounts match, looked up
// once (imageRow) and kept.
type rowMatch struct {
	row      images.Row
	ok       bool
	conflict string
}

// matchRow is imageRow's lookup.
func (c *converter) matchRow(s *placement.Placement) (images.Row, bool, string) {
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
		row, matched := t.MatchFor(svc.Image, m.Target, environment(svc))
		if !matched {
			continue
		}
		if ok && (row.Owner != found.Owner || row.Mode != found.Mode || row.Intent != found.Intent || row.Kind != found.Kind) {
			return images.Row{}, false, fmt.Sprintf("image table rows %s (%s:%d) and %s (%s:%d) disagree", found.Named(), images.TableFile, found.Line, row.Named(), images.TableFile, row.Line)
		}
		found, ok = row, true
	}
	return found, ok, ""
}

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
			var known, names, pin string
			switch {
			case row.MinMajor == 0:
				known, names, pin = fmt.Sprintf("up to major version %d", row.MaxMajor), "a later one", fmt.Sprintf("up to %d", row.MaxMajor)
			case row.MaxMajor == 0:
				known, names, pin = fmt.Sprintf("from major version %d on", row.MinMajor), "an earlier one", fmt.Sprintf("from %d on", row.MinMajor)
			default:
				known, names, pin = fmt.Sprintf("for major versions %d to %d", row.MinMajor, row.MaxMajor), "another", fmt.Sprintf("from %d to %d", row.MinMajor, row.MaxMajor)
			}
			return fmt.Sprintf("the image table knows %s (%s:%d) %s only, and image %s names %s or none: declare the source, or pin a major version %s in the tag if the image runs one", row.Named(), images.TableFile, row.Line, known, svc.Image, names, pin)
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
	if ev.Surveyed != "" {
		return "a " + evidenceWord(ev.Kind) + " on the legacy host (" + ev.Surveyed + ")"
	}
	if ev.Link != "" {
		return "a link in the project to a " + evidenceWord(ev.Kind) + " (" + ev.Link + ")"
	}
	return "a " + evidenceWord(ev.Kind) + " in the project"
}

// kindUnknown says why the kind of a bind source without a declared kind
// cannot be told, or "": the checkout has nothing at the source (or only
// a link out of the project), or the source is absolute or in a home
// directory (~), which the checkout cannot show, and not a path of the
// host's own (rules.HostPath: a socket, /etc/passwd; hostOwned: a system
// directory, a folder of /etc; a source that must only move still needs
// its kind once given a path, so it is asked at once); nothing else
// settles it
// (a trailing slash, the image table's kind); and the source's or a
// target's last element looks like a file name (project.LooksLikeFile),
// where docker would create a directory and break a file mount.
func (c *converter) kindUnknown(s *placement.Placement, ev project.SourceEvidence) *placement.KindUnknown {
	first := s.First()
	elsewhere := strings.HasPrefix(s.Key, "/") || strings.HasPrefix(s.Key, "~")
	if _, hosts := rules.HostPath(path.Clean(s.Key)); hosts && strings.HasPrefix(s.Key, "/") || c.hostOwned(s) {
		return nil // the host's own (a socket, /etc/cron.daily): C2M006 says kind host
	}
	if s.Section != declare.SectionBinds || ev.Kind != declare.KindNone || !(ev.Absent || ev.Outside != "" || elsewhere) || strings.HasSuffix(first.Source, "/") || c.rowKind(s) {
		return nil
	}
	name := looksLikeFile(first.Source, s.Key, s.Mounts)
	if name == "" {
		return nil
	}
	shown := placement.ShownAbsent
	switch {
	case ev.Outside != "":
		shown = placement.ShownLinkOut
	case strings.HasPrefix(s.Key, "/"):
		shown = placement.ShownHostPath
	case strings.HasPrefix(s.Key, "~"):
		shown = placement.ShownHome
	}
	return &placement.KindUnknown{Source: first.Source, Shown: shown, Looks: name}
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
func (c *converter) place(s *placement.Placement) (hostPath, legacy string, problem *placement.Unplaced) {
	first := s.First()
	var declared string
	if s.Entry != nil {
		declared = s.Entry.Path
	}
	if declared == "" && c.layout == declare.LayoutFHS {
		switch {
		case c.placedByIntent(s):
			return c.placeByIntent(s)
		case s.Entry == nil && s.Section == declare.SectionBinds && strings.HasPrefix(s.Key, "/") && c.holdingBind(s) != nil && c.placedByIntent(c.holdingBind(s)):
			// Undeclared inside a bind layout fhs moves: it moves with
			// it, as docker mounts them as one tree.
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
			return path.Join(holder.Entry.Path, rel), "bind " + s.Key, nil
		}
		switch {
		case declared != "":
			return declared, "bind " + s.Key, nil
		case strings.HasPrefix(written, "~"):
			return "", "", &placement.Unplaced{Why: placement.WhyHome, What: first.Source}
		case strings.HasPrefix(written, "/"):
			return written, "", nil
		case c.hostDir == "":
			return "", "", &placement.Unplaced{Why: placement.WhyNoHostProjectDirectory, What: first.Source}
		default:
			return path.Join(c.hostDir, written), "", nil
		}
	case declare.SectionVolumes:
		legacy = "Docker volume " + c.dockerVolumeName(first.Volume)
		switch {
		case declared != "":
			return declared, legacy, nil
		case c.volumeRoot == "":
			return "", "", &placement.Unplaced{Why: placement.WhyNoVolumeRoot, What: fmt.Sprintf("named volume %q", first.Volume)}
		default:
			return c.underRoot(path.Join(c.volumeRoot, c.module, first.Volume), fmt.Sprintf("named volume %q", first.Volume), legacy)
		}
	default: // anonymous
		legacy = "anonymous Docker volume of service " + first.AnonymousService()
		switch {
		case declared != "":
			return declared, legacy, nil
		case c.volumeRoot == "":
			return "", "", &placement.Unplaced{Why: placement.WhyNoVolumeRoot, What: "anonymous volume at " + first.Target}
		default:
			return c.underRoot(c.anonymousPlace(first.AnonymousService(), first.Target), fmt.Sprintf("anonymous volume of service %q", first.AnonymousService()), legacy)
		}
	}
}

// anonymousPlace is where an anonymous volume of service at target lands
// by default: VOLUME_ROOT/MODULE/SERVICE/TARGET-NAME. A named volume of
// the same name as the service lands at VOLUME_ROOT/MODULE/SERVICE, which
// would hold it: the folder is then SERVICE-anonymous (SERVICE-anonymous-2,
// … while a named volume has that name too), so that default places
// never lie inside one another.
func (c *converter) anonymousPlace(service, target string) string {
	dir := service
	for n := 1; c.l != nil && c.l.Compose != nil; n++ {
		if _, named := c.l.Compose.Volumes[dir]; !named {
			break
		}
		dir = service + "-anonymous"
		if n > 1 {
			dir += "-" + strconv.Itoa(n)
		}
	}
	return path.Join(c.volumeRoot, c.module, dir, targetName(target))
}

// placedByIntent reports whether layout fhs places s by its intent: a
// declaration without a path of its own that is not a host path, unless
// it is an absolute bind the module may own where it is.
func (c *converter) placedByIntent(s *placement.Placement) bool {
	return c.layout == declare.LayoutFHS && s.Entry != nil && s.Entry.Path == "" && s.Entry.Kind != declare.KindHost && !c.ownableInPlace(s)
}

// ownableInPlace reports whether s is an absolute bind source the module
// may own where it is (rules.Ownable: inside one of its roots:, its own
// folder of a data root): declared without a path, layout fhs keeps it
// there, as it keeps one whose values are produced, where placing it by
// its intent would move its data for nothing, and against the roots:
// entry that keeps it.
func (c *converter) ownableInPlace(s *placement.Placement) bool {
	if s.Section != declare.SectionBinds || !strings.HasPrefix(s.Key, "/") {
		return false
	}
	var roots []string
	for _, r := range c.roots() {
		roots = append(roots, r.Path)
	}
	_, ok := rules.Ownable(path.Clean(s.Key), c.module, roots)
	return ok
}

// underRoot returns p when it lies below VOLUME_ROOT/MODULE, or why not:
// a volume or service named "." or ".." would otherwise land on the volume
// root itself or in another module's folder.
func (c *converter) underRoot(p, what, legacy string) (string, string, *placement.Unplaced) {
	if root := path.Join(c.volumeRoot, c.module); !manifest.IsAncestor(root, p) {
		return "", "", &placement.Unplaced{Why: placement.WhyOutsideRoot, What: what, At: p, Root: root}
	}
	return p, legacy, nil
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

func (c *converter) addMissingResource(s *placement.Placement, r *manifest.Resource, reason string) *missing {
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
	m := &missing{src: s, entry: e, reason: reason}
	c.missing = append(c.missing, m)
	return m
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
	slices.SortStableFunc(ds, func(a, b rules.Diagnostic) int {
		switch {
		case a.File != b.File:
			return strings.Compare(a.File, b.File)
		case a.Line != b.Line:
			return cmp.Compare(a.Line, b.Line)
		case a.Rule != b.Rule:
			return strings.Compare(a.Rule, b.Rule)
		}
		return strings.Compare(a.Message, b.Message)
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

// flagsAgainstDefaults finds what -f, --profile and --env-file, given or
// chosen by the declarations (compose_files:, profiles:, env_files:),
// change from what docker compose reads in the project directory without
// them (C2M025), read once (project.ReadWithoutFlags): the compose files
// they leave out or reorder, the services the default profiles bring in
// and the chosen ones leave out, the default env files when the chosen
// ones are others. A choice in the declarations is judged like a flag:
// the declarations are the pull request's to edit, and docker compose up,
// run in the folder, reads the folder's files, not theirs.
func (c *converter) flagsAgainstDefaults(given Options, st settings) {
	wd := given.workingDir()
	chosen := func(flag, declared []string) []string {
		if len(flag) > 0 {
			return flag
		}
		return declared
	}
	givenFiles := absPaths(given.ConfigFiles, wd)
	files := len(chosen(givenFiles, st.composeFiles)) > 0
	profiles := len(chosen(given.Profiles, st.profiles)) > 0
	envFiles := chosen(absPaths(given.EnvFiles, wd), st.envFiles)
	if !files && !profiles && len(envFiles) == 0 {
		return
	}
	def := project.ReadWithoutFlags(c.l.Dir, c.opts.Environ)
	if files {
		c.filesRead = def.Files
		c.filesBy = "-f"
		if len(givenFiles) == 0 {
			c.filesBy = "compose_files: in the declarations"
		}
		c.filesLeftOut, c.filesReordered = c.l.FilesAgainst(def.Files, len(givenFiles) == 0)
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
	p := &rules.ProjectPass{Project: c.l, Mounts: c.mounts, Declarations: c.decl, Unapplied: c.unapplied, NotCarried: c.uncarried, Unmatched: c.unmatched, Secrets: c.secrets,
		ImageVolumes: c.imageVolumeFacts, ShadowedFiles: c.shadowed, FilesRead: c.filesRead, FilesLeftOut: c.filesLeftOut, FilesBy: c.filesBy, FilesReordered: c.filesReordered, EnvDisabled: c.envDisabled,
		ProfilesLeftOut: c.profilesLeftOut, DefaultProfiles: c.defaultProfiles, DefaultEnvFiles: c.defaultEnvFiles}
	for _, s := range c.placements {
		p.Placements = append(p.Placements, *s)
	}
	return p
}

// headerSource is what a manifest's header says it was generated from:
// the first compose file by its path from opts.ManifestDir, starting
// with "./" or "../" (manifest.Located), when that is set; else, and for
// a compose file read from standard input, by its path in the project
// folder. Neither names the folder the checkout sits in, so a clone in a
// folder of another name converts to the same bytes.
func headerSource(l *project.Project, opts Options) string {
	first := l.Rel(l.ConfigFiles[0])
	dir := manifestDir(opts)
	if dir == "" || first == project.StdinName {
		return first
	}
	return locatedFrom(dir, l.ConfigFiles[0])
}

// manifestDir returns opts.ManifestDir made absolute against
// opts.WorkingDirectory (or the process's working directory), or "".
func manifestDir(opts Options) string {
	dir := opts.ManifestDir
	switch {
	case dir == "":
		return ""
	case filepath.IsAbs(dir):
		return filepath.Clean(dir)
	}
	if opts.WorkingDirectory != "" {
		return filepath.Join(opts.WorkingDirectory, dir)
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return ""
	}
	return abs
}

// locatedFrom returns file, an absolute path, by its path from dir as a
// header names it ("../mail/compose.yaml"), or file slash-separated when
// there is no such path (another volume).
func locatedFrom(dir, file string) string {
	rel, err := filepath.Rel(dir, file)
	if err != nil {
		return filepath.ToSlash(file)
	}
	return manifest.LocatedPath(filepath.ToSlash(rel))
}
