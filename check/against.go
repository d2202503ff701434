package check

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"
	"sync"

	"github.com/compose2manifest/compose2manifest/batch"
	"github.com/compose2manifest/compose2manifest/convert"
	"github.com/compose2manifest/compose2manifest/internal/fsread"
	"github.com/compose2manifest/compose2manifest/manifest"
	"github.com/compose2manifest/compose2manifest/project"
	"github.com/compose2manifest/compose2manifest/rules"
)

// Against checks the manifests paths name as Manifests does, then holds
// each that decoded against a fresh conversion of its compose project
// under root, with cfg.Convert's options.
//
// It finds the projects under root as convert --batch does
// (batch.Discover), converts each once, cfg.Jobs at a time, and matches a
// manifest to the project that converts to its module name. A manifest
// whose first source is not a name batch.Discover finds is matched among
// the folders under root holding that file. It reads every recorded
// source that lies inside root and compares its sha256, and runs every
// rule of cfg.Rules with a CheckAgainst over the facts (rules.RunAgainst):
// a stale manifest, an ambiguous match, a manifest edited by hand. The
// errors of each conversion are added as they are; a project that cannot
// be converted again is an error diagnostic with no rule.
//
// The error is for the run as a whole, and the Result is then nil:
// cfg.Convert names compose files or a project directory, root cannot be
// read or is not a directory, or finding or converting its projects
// stopped (ctx is done). A relative root is taken from cfg.Dir.
func Against(ctx context.Context, cfg Config, root string, paths []string) (*Result, error) {
	if o := cfg.Convert; len(o.ConfigFiles) > 0 || o.ProjectDirectory != "" || o.WorkingDirectory != "" {
		return nil, errors.New("the conversion options name compose files or a project directory: check finds each project itself")
	}
	fi, err := os.Stat(resolve(cfg.Dir, root))
	if err != nil {
		return nil, err
	}
	if !fi.IsDir() {
		return nil, fmt.Errorf("%s is not a directory", root)
	}
	wd, err := filepath.Abs(cfg.Dir)
	if err != nil {
		return nil, err
	}
	res := read(cfg, paths)
	wanted := map[string]bool{}
	for _, m := range res.Manifests {
		if m != nil {
			wanted[m.Module] = true
		}
	}
	a, err := index(ctx, cfg, resolve(wd, root), wanted)
	if err != nil {
		return nil, err
	}
	a.wd = wd
	list := cfg.rules()
	for i, m := range res.Manifests {
		if m == nil {
			continue
		}
		mod := &res.Report.Modules[i]
		mod.Diagnostics = append(mod.Diagnostics, a.check(ctx, list, mod.File, m)...)
	}
	res.finish(cfg)
	return res, nil
}

// projects is every compose project under a root, converted once and
// indexed by module name.
type projects struct {
	root string // absolute
	wd   string // the working directory, absolute: messages name paths below it relative to it
	opts convert.Options
	// byModule maps a module name to the project folders that convert to
	// it; results holds the conversions of the modules that manifests
	// name. failed lists the projects, relative to root, that could not be
	// converted at all.
	byModule map[string][]string
	results  map[string]*convert.Result
	failed   []string
	// others caches conversions of folders found by a manifest's first
	// source when that is not a name batch.Discover finds.
	others map[string]*convert.Result
}

// index converts every compose project under root once, in parallel, and
// indexes them by module name. wanted names the modules whose conversions
// are kept for comparison.
func index(ctx context.Context, cfg Config, root string, wanted map[string]bool) (*projects, error) {
	root, err := filepath.Abs(root)
	if err != nil {
		return nil, err
	}
	found, err := batch.Discover(root, nil)
	if err != nil {
		return nil, err
	}
	a := &projects{root: root, opts: cfg.Convert, byModule: map[string][]string{}, results: map[string]*convert.Result{}, others: map[string]*convert.Result{}}
	var mu sync.Mutex
	err = batch.Each(ctx, found, cfg.Jobs, cfg.Convert, func(i int, res *convert.Result, err error) {
		mu.Lock()
		defer mu.Unlock()
		dir := found[i].Dir
		name := moduleOf(res)
		if err != nil || name == "" {
			a.failed = append(a.failed, relPath(root, dir))
			return
		}
		a.byModule[name] = append(a.byModule[name], dir)
		if wanted[name] {
			a.results[dir] = res
		}
	})
	if err != nil {
		return nil, err
	}
	for _, dirs := range a.byModule {
		sort.Strings(dirs)
	}
	sort.Strings(a.failed)
	return a, nil
}

// moduleOf returns the module a conversion produced or refused, or "".
func moduleOf(res *convert.Result) string {
	switch {
	case res == nil:
		return ""
	case res.Module != nil:
		return res.Module.Module
	case res.Candidate != nil:
		return res.Candidate.Module
	}
	return ""
}

// check holds m against its project's conversion: it gathers the facts of
// a rules.AgainstPass, runs the rules over them, and adds the conversion's
// own errors, or the failure to convert again. file is the manifest's file
// name as given.
func (a *projects) check(ctx context.Context, list []*rules.Rule, file string, m *manifest.Module) []rules.Diagnostic {
	pass := &rules.AgainstPass{Manifest: m, File: file, Root: a.root, Unconverted: a.failed}
	if len(m.Sources) == 0 {
		return rules.RunAgainst(list, pass)
	}
	dir, res, candidates, err := a.find(ctx, m)
	if len(candidates) > 0 {
		pass.Candidates = candidates
		return rules.RunAgainst(list, pass)
	}
	if dir == "" {
		return rules.RunAgainst(list, pass)
	}
	rel := relPath(a.wd, dir)
	pass.Project = rel
	recorded := map[string]bool{}
	for _, s := range m.Sources {
		recorded[s.File] = true
		pass.Sources = append(pass.Sources, a.source(dir, s))
	}
	var own []rules.Diagnostic
	if err == nil && res != nil {
		// Converted with the settings the manifest records, unless check
		// was given its own.
		opts := settingsFor(a.opts, m.ConvertedWith)
		if got := moduleOf2(res); got == nil || !got.ConvertedWith.Equal(settingsRecorded(opts)) {
			res, err = a.convertAt(ctx, dir, m, opts)
		}
	}
	if err != nil || res == nil {
		out := rules.RunAgainst(list, pass)
		pos := m.Pos
		if pos.File == "" {
			pos = manifest.Pos{File: file, Line: m.Pos.Line}
		}
		return append(out, rules.Diagnostic{Severity: rules.Error, File: pos.File, Line: pos.Line, Module: m.Module, Message: fmt.Sprintf("converting %s again: %v", rel, err)})
	}
	c := &rules.Conversion{Module: res.Module, Refused: res.Status != convert.Converted}
	if c.Module == nil {
		c.Module = res.Candidate
	}
	for _, s := range c.Module.Sources {
		if !recorded[s.File] {
			c.Unrecorded = append(c.Unrecorded, path.Join(rel, s.File))
		}
	}
	for _, d := range res.Diagnostics {
		if d.File != "" {
			d.File = path.Join(rel, d.File)
		}
		d.Module = m.Module
		c.Diagnostics = append(c.Diagnostics, d)
		if d.Severity == rules.Error {
			own = append(own, d)
		}
	}
	if !c.Refused {
		c.Differences = manifest.Diff(m, c.Module)
	}
	pass.Conversion = c
	return append(own, rules.RunAgainst(list, pass)...)
}

// source holds the recorded source s against the file it names in the
// project folder dir. A name outside the root is not read: a manifest must
// not make check read files there.
func (a *projects) source(dir string, s manifest.Source) rules.SourceCheck {
	sc := rules.SourceCheck{Source: s, State: rules.SourceUnchanged}
	p := filepath.Join(dir, filepath.FromSlash(s.File))
	if filepath.IsAbs(filepath.FromSlash(s.File)) || !within(a.root, p) {
		sc.State = rules.SourceOutside
		return sc
	}
	// A recorded source is read only when it is a bounded regular file
	// that lies, after symbolic links, inside the root: a link to
	// /etc/shadow must not be hashed and its digest printed.
	if real, err := filepath.EvalSymlinks(p); err == nil {
		if rr, err := filepath.EvalSymlinks(a.root); err != nil || !within(rr, real) {
			sc.State = rules.SourceOutside
			return sc
		}
	}
	data, err := fsread.File("source", p, project.MaxInputSize)
	if err != nil {
		sc.State = rules.SourceGone
		if errors.Is(err, fsread.ErrNotRegular) || !os.IsNotExist(err) {
			sc.State = rules.SourceOutside
		}
		return sc
	}
	sum := sha256.Sum256(data)
	if got := hex.EncodeToString(sum[:]); got != s.SHA256 {
		sc.State, sc.CurrentSHA256 = rules.SourceChanged, got
	}
	return sc
}

// find returns the project folder under root that converts to m's module,
// and that conversion; or, when several do, their paths relative to root.
// A manifest whose first source is not a name batch.Discover finds is
// looked for among the folders holding that file (inside root), each
// converted once.
func (a *projects) find(ctx context.Context, m *manifest.Module) (string, *convert.Result, []string, error) {
	if dirs := a.byModule[m.Module]; len(dirs) > 1 {
		var rels []string
		for _, d := range dirs {
			rels = append(rels, relPath(a.root, d))
		}
		return "", nil, rels, nil
	} else if len(dirs) == 1 {
		return dirs[0], a.results[dirs[0]], nil, nil
	}
	first := filepath.FromSlash(m.Sources[0].File)
	if project.IsDefaultFileName(m.Sources[0].File) || filepath.IsAbs(first) || strings.HasPrefix(path.Clean(m.Sources[0].File), "..") {
		return "", nil, nil, nil
	}
	var found []string
	var foundRes *convert.Result
	var lastErr error
	err := filepath.WalkDir(a.root, func(dir string, d fs.DirEntry, err error) error {
		if err != nil || !d.IsDir() {
			return nil
		}
		if name := d.Name(); dir != a.root && (name == ".git" || name == "node_modules") {
			return filepath.SkipDir
		}
		if _, err := os.Stat(filepath.Join(dir, first)); err != nil {
			return nil
		}
		res, ok := a.others[dir]
		if !ok {
			opts := a.opts
			opts.ProjectDirectory, opts.WorkingDirectory = dir, dir
			opts.ConfigFiles = []string{filepath.Join(dir, first)}
			var err error
			if res, err = convert.Convert(ctx, opts); err != nil {
				lastErr, res = err, nil
			}
			a.others[dir] = res
		}
		if moduleOf(res) == m.Module {
			found = append(found, relPath(a.root, dir))
			foundRes = res
		}
		return nil
	})
	switch {
	case err != nil:
		return "", nil, nil, err
	case len(found) > 1:
		return "", nil, found, nil
	case len(found) == 1:
		return filepath.Join(a.root, filepath.FromSlash(found[0])), foundRes, nil, nil
	}
	return "", nil, nil, lastErr
}

// within reports whether p lies in dir (or is dir).
func within(dir, p string) bool {
	r, err := filepath.Rel(dir, p)
	return err == nil && r != ".." && !strings.HasPrefix(r, ".."+string(filepath.Separator))
}

// relPath returns p relative to base when it lies below it, else p.
func relPath(base, p string) string {
	r, err := filepath.Rel(base, p)
	if err != nil || strings.HasPrefix(r, "..") {
		return filepath.ToSlash(p)
	}
	return filepath.ToSlash(r)
}

// settingsFor returns the options to convert a manifest's project with:
// given's settings where check was given them (a non-empty value, or
// Strict), else those the manifest records (converted_with).
func settingsFor(given convert.Options, rec *manifest.Settings) convert.Options {
	o := given
	if rec == nil {
		return o
	}
	if len(o.Profiles) == 0 {
		o.Profiles = rec.Profiles
	}
	if len(o.EnvFiles) == 0 {
		o.EnvFiles = rec.EnvFiles
	}
	if len(o.AllowDirs) == 0 {
		o.AllowDirs = rec.AllowDirs
	}
	if o.HostProjectDirectory == "" {
		o.HostProjectDirectory = rec.HostProjectDirectory
	}
	if o.VolumeRoot == "" {
		o.VolumeRoot = rec.VolumeRoot
	}
	o.Strict = o.Strict || rec.Strict
	return o
}

// settingsRecorded returns the settings of o a manifest records, as a
// conversion in a project's folder (relative paths) records them.
func settingsRecorded(o convert.Options) *manifest.Settings {
	clean := func(ps []string) []string {
		var out []string
		for _, p := range ps {
			out = append(out, filepath.ToSlash(filepath.Clean(p)))
		}
		return out
	}
	return &manifest.Settings{Profiles: o.Profiles, EnvFiles: clean(o.EnvFiles), AllowDirs: clean(o.AllowDirs),
		HostProjectDirectory: o.HostProjectDirectory, VolumeRoot: o.VolumeRoot, Strict: o.Strict}
}

// moduleOf2 returns the module a conversion produced or refused, or nil.
func moduleOf2(res *convert.Result) *manifest.Module {
	switch {
	case res == nil:
		return nil
	case res.Module != nil:
		return res.Module
	}
	return res.Candidate
}

// convertAt converts the project in dir for the manifest m with opts:
// from its default compose files, or from m's first source when that is
// not a default name.
func (a *projects) convertAt(ctx context.Context, dir string, m *manifest.Module, opts convert.Options) (*convert.Result, error) {
	opts.ProjectDirectory, opts.WorkingDirectory = dir, dir
	if first := m.Sources[0].File; !project.IsDefaultFileName(first) {
		opts.ConfigFiles = []string{filepath.Join(dir, filepath.FromSlash(first))}
	}
	return convert.Convert(ctx, opts)
}
