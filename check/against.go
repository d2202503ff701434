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
	"runtime/debug"
	"slices"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/compose2manifest/compose2manifest/batch"
	"github.com/compose2manifest/compose2manifest/convert"
	"github.com/compose2manifest/compose2manifest/internal/atomicfile"
	"github.com/compose2manifest/compose2manifest/internal/fsread"
	"github.com/compose2manifest/compose2manifest/manifest"
	"github.com/compose2manifest/compose2manifest/project"
	"github.com/compose2manifest/compose2manifest/report"
	"github.com/compose2manifest/compose2manifest/rules"
)

// Against checks the manifests paths name as Manifests does, then holds
// each that decoded against its compose project under root.
//
// It finds the projects under root as convert --batch does
// (batch.Discover) and names each without loading it where it can
// (convert.QuickModule), converting only those it cannot name, to learn
// their module; two projects of one module name make that module
// ambiguous (C2M017). A manifest is matched to the project of its module
// name; one whose first source is not a name batch.Discover finds is
// matched among the folders under root holding that file.
//
// Each manifest is then checked on its own, cfg.Jobs at a time, and its
// conversion dropped once compared. It reads every recorded source that
// lies inside root and compares its sha256. A manifest whose bytes are
// what a conversion wrote (its fingerprint's body digest holds), whose
// sources are unchanged and whose fingerprint still holds (the same
// conversion version, image table, recorded settings, values of the
// variables it names in cfg.Convert.Environ, and what the checkout shows
// at each path it names) is current: its project is not converted, and
// there is nothing to report. Any other is converted again, with the
// settings it records (converted_with) unless cfg.Convert gives them
// (settingsFor), and every rule of cfg.Rules with a CheckAgainst runs
// over the facts (rules.RunAgainst): a stale manifest, an ambiguous
// match, a manifest edited by hand. The errors of each conversion are
// added as they are; a project that cannot be converted again is an
// error diagnostic with no rule.
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
	files, _ := manifestFiles(cfg.Dir, paths) // readEach reports what cannot be read
	// The cache's index is read while the projects are found.
	cached := make(chan *cache, 1)
	go func() {
		if cfg.Reconvert {
			// Trusting nothing the repository or a cache could hold.
			cached <- nil
			return
		}
		cached <- newCache(cfg.Cache, cfg.Dir, cfg.rules(), paths, false)
	}()
	a, err := index(ctx, cfg, resolve(wd, root), files)
	ch := <-cached
	if cfg.TuneGC {
		n := int64(len(files))
		if ch != nil {
			n -= int64(len(ch.entries))
		}
		debug.SetMemoryLimit(batch.MemoryLimitBase + max(n, 0)*MemoryLimitPerUncached)
	}
	if err != nil {
		return nil, err
	}
	a.wd = wd
	list := cfg.rules()
	a.shard = cfg.Shard
	res := readEach(ctx, cfg, paths, ch, func(file string, m *manifest.Module, t text, full func() *manifest.Module) ([]rules.Diagnostic, bool) {
		if ctx.Err() != nil {
			return nil, true
		}
		if !a.mine(ctx, file, m) {
			return nil, false
		}
		var dir string
		diags := a.check(ctx, list, file, m, t, full, &dir)
		if dir != "" {
			// As a batch compares them: relative binds in the checkout.
			for i := range m.Resources {
				r := &m.Resources[i]
				if o := rules.CheckoutOrigin(r.Legacy(), dir); o != r.Legacy() {
					origin := manifest.Origin{}
					if r.Origin != nil {
						origin = *r.Origin
					}
					origin.Legacy = o
					r.Origin = &origin
				}
			}
		}
		return diags, true
	}, batch.CheckoutShown(relPath(wd, a.root), a.root))
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	res.reread = true // kept without their containers
	if folders := manifestFolders(cfg.Dir, paths); folders != "" {
		a.unmanifested(res, folders)
		// What a batch would list as not converted, the gate lists: a
		// compose file beside a project that none reads, one below
		// node_modules, a symbolic link to a folder.
		res.NotConverted = a.found.NotConverted(relPath(wd, a.root), a.read, cfg.Shard)
	}
	res.Converted = int(a.converted.Load())
	res.finish(cfg)
	return res, nil
}

// MemoryLimitPerUncached is what Config.TuneGC adds to the soft memory
// limit for each manifest the cache has no entry for.
const MemoryLimitPerUncached = 16 << 10

// manifestFolders returns the folders among paths, as messages name them
// ("manifests/", joined with ", "), or "" when every path is a file: a
// folder of manifests is meant to hold one for every project, a list of
// files (a pre-commit hook's) is not.
func manifestFolders(dir string, paths []string) string {
	var out []string
	for _, p := range paths {
		if fi, err := os.Stat(resolve(dir, p)); err == nil && fi.IsDir() {
			out = append(out, p)
		}
	}
	return strings.Join(out, ", ")
}

// unmanifested adds to res, after its manifests, one module for each
// project under the root that no checked manifest was made from, with
// its C2M008 finding (rules.NoManifest), in folder order.
func (a *projects) unmanifested(res *Result, out string) {
	moduleOf := map[string]string{}
	for name, dirs := range a.byModule {
		for _, d := range dirs {
			moduleOf[d] = name
		}
	}
	for _, d := range a.dirs {
		if a.matched[d] || !a.shard.Has(relPath(a.root, d)) {
			continue
		}
		file := d
		if files := project.DefaultFiles(d); len(files) > 0 {
			file = files[0]
		}
		rel := relPath(a.wd, d)
		diag := rules.NoManifest(relPath(a.wd, file), rel, moduleOf[d], out)
		name := moduleOf[d]
		if name == "" {
			name = rel
		}
		res.Report.Modules = append(res.Report.Modules, report.Module{Module: name, File: diag.File, Diagnostics: []rules.Diagnostic{diag}})
		res.Unmanifested++
		res.Manifests = append(res.Manifests, nil)
		res.generated = append(res.generated, false)
	}
}

// claims names, without loading, the projects found[i] QuickModule could
// not name (quick[i] false) that a generated manifest among files names
// in its header (the folder of the compose file it names from its own
// folder, or an earlier version's folder base name) and reproduces byte
// for byte (convert.Reproduces) with the settings the index converts
// with, as if written where it lies: converting such a project gives
// that manifest, so its module is the manifest's. It sets names[i] and
// returns which it named. A manifest that cannot be read, or reproduces
// nothing, names nothing: its project is converted.
func claims(cfg Config, found []batch.Project, quick []bool, names []string, files []string) []bool {
	claimed := make([]bool, len(found))
	byBase, byDir := map[string][]int{}, map[string][]int{}
	for i, p := range found {
		if !quick[i] && p.Err == nil && p.File == "" {
			byBase[filepath.Base(p.Dir)] = append(byBase[filepath.Base(p.Dir)], i)
			byDir[p.Dir] = append(byDir[p.Dir], i)
		}
	}
	if len(byBase) == 0 {
		return claimed
	}
	var mu sync.Mutex
	parallel(len(files), cfg.Jobs, func(k int) {
		file := resolve(cfg.Dir, files[k])
		data, err := fsread.File("manifest", file, manifest.MaxSize)
		if err != nil || !atomicfile.Generated(data) {
			return
		}
		if rec, actual, ok := manifest.BodyDigest(data); !ok || rec != actual {
			return
		}
		m, err := manifest.Decode(files[k], data)
		if err != nil {
			return
		}
		opts := cfg.Convert
		var which []int
		if in := m.GeneratedIn(absDir(file)); in != "" {
			// The header names the compose file from the manifest's folder.
			opts.ManifestDir = absDir(file)
			which = byDir[filepath.Dir(in)]
		} else {
			folder, _, _ := strings.Cut(m.GeneratedFrom(), "/")
			which = byBase[folder]
		}
		for _, i := range which {
			dir := found[i].Dir
			if !convert.RecordedSettings(opts, dir).Equal(m.ConvertedWith) || !convert.Reproduces(dir, data, m, opts) {
				continue
			}
			mu.Lock()
			names[i], claimed[i] = m.Module, true
			mu.Unlock()
		}
	})
	return claimed
}

// absDir returns the folder of file, made absolute ("" when it cannot be).
func absDir(file string) string {
	abs, err := filepath.Abs(file)
	if err != nil {
		return ""
	}
	return filepath.Dir(abs)
}

// projects is every compose project under a root, indexed by module
// name. It is read-only once index returns, but for others.
type projects struct {
	root     string // absolute
	realRoot string // root after symbolic links; "" when they do not resolve
	wd       string // the working directory, absolute: messages name paths below it relative to it
	opts     convert.Options
	// reconvert is Config.Reconvert; converted counts the conversions
	// made to compare a manifest (Result.Converted).
	reconvert bool
	timeout   time.Duration // Config.ProjectTimeout
	converted atomic.Int64
	// byModule maps a module name to the project folders that convert to
	// it. failed lists the projects, relative to root, that could not be
	// converted at all.
	byModule map[string][]string
	failed   []string
	// quick reports which folders of byModule were named without
	// loading; confirmed holds, for a module with several, those that
	// convert to it (dirsOf). mu guards confirmed and others.
	quick     map[string]bool
	confirmed map[string][]string
	// others caches the module names of compose files (by path) found by
	// a manifest's first source when that is not a name batch.Discover
	// finds, and holders the folders under root holding each such name.
	mu      sync.Mutex
	others  map[string]string
	holders map[string][]string
	// matched holds the folders a checked manifest was found to be made
	// from (or, ambiguous, might be); guarded by mu.
	matched map[string]bool
	// dirs are every project folder found under root.
	dirs []string
	// found is what discovery found; read the files the checked
	// manifests record as read (their sources, absolute), guarded by mu:
	// what no project reads is listed as convert --batch lists it.
	found *batch.Found
	read  map[string]bool
	// shard is Config.Shard: the part of the projects checked (mine).
	shard batch.Shard
}

// mine reports whether the manifest m (the file as given) is a.shard's
// to check: the path relative to the root of the project it is made from
// (its folder, or the compose file it is made from alone; of several
// candidates, the first) is in the shard, or, made from no project under
// the root, its file name is. For another shard's manifest, the folders
// and sources it matches are still recorded, so that neither is listed
// here as unmanifested or not converted.
func (a *projects) mine(ctx context.Context, file string, m *manifest.Module) bool {
	if !a.shard.On() {
		return true
	}
	key := filepath.Base(file)
	if len(m.Sources) == 0 {
		return a.shard.Has(key)
	}
	dir, first, candidates, _ := a.find(ctx, m, a.manifestDir(file))
	switch {
	case len(candidates) > 0:
		key = slices.Min(candidates)
	case dir != "":
		key = relPath(a.root, filepath.Join(dir, first))
	}
	if a.shard.Has(key) {
		return true
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	if dir != "" && first == "" {
		a.matched[dir] = true
	}
	for _, c := range candidates {
		a.matched[filepath.Join(a.root, filepath.FromSlash(c))] = true
	}
	for _, s := range m.Sources {
		if p := filepath.Join(dir, filepath.FromSlash(s.File)); dir != "" && project.Within(a.root, p) {
			a.read[p] = true
		}
	}
	return false
}

// index names every compose project under root, each without loading
// it where convert.QuickModule can or one of the manifests it is given
// says (claims), else by converting it once, in parallel, and indexes
// them by module name.
func index(ctx context.Context, cfg Config, root string, manifests []string) (*projects, error) {
	root, err := filepath.Abs(root)
	if err != nil {
		return nil, err
	}
	all, err := batch.DiscoverAll(root, cfg.Exclude)
	if err != nil {
		return nil, err
	}
	found := all.Projects
	realRoot, _ := filepath.EvalSymlinks(root)
	a := &projects{root: root, realRoot: realRoot, opts: batch.RootDefaults(root, cfg.Convert), reconvert: cfg.Reconvert, timeout: cfg.ProjectTimeout, byModule: map[string][]string{}, quick: map[string]bool{},
		confirmed: map[string][]string{}, others: map[string]string{}, holders: map[string][]string{}, matched: map[string]bool{}, found: all, read: map[string]bool{}}
	names := make([]string, len(found))
	quick := make([]bool, len(found))
	parallel(len(found), cfg.Jobs, func(i int) {
		if p := found[i]; p.Err == nil && p.File == "" {
			names[i], quick[i] = convert.QuickModule(p.Dir, cfg.Convert)
		}
	})
	claimed := claims(cfg, found, quick, names, manifests)
	var slow []int
	for i := range found {
		if !quick[i] && !claimed[i] {
			slow = append(slow, i)
		}
	}
	if err := a.convertSome(ctx, cfg, found, slow, names); err != nil {
		return nil, err
	}
	for i, p := range found {
		a.dirs = append(a.dirs, p.Dir)
		switch {
		case names[i] != "":
			a.byModule[names[i]] = append(a.byModule[names[i]], p.Dir)
			a.quick[p.Dir] = quick[i]
		default:
			a.failed = append(a.failed, relPath(root, p.Dir))
		}
	}
	for _, dirs := range a.byModule {
		sort.Strings(dirs)
	}
	sort.Strings(a.failed)
	return a, nil
}

// namedByFlag returns, for a manifest whose module -p named
// (converted_with: project_name, the module's name), the project folders
// under root that the compose file its header names fits: the folder that
// file is in, from mdir, the manifest's folder ("from ../pn/compose.yaml"),
// or, in an earlier version's header ("from pn/compose.yaml"), the
// folders of that base name holding it. No other folder can have made it,
// and converting it with the recorded -p says whether it still does.
func (a *projects) namedByFlag(m *manifest.Module, mdir string) []string {
	if m.ConvertedWith == nil || m.ConvertedWith.ProjectName == "" || m.ConvertedWith.ProjectName != m.Module {
		return nil
	}
	from := m.GeneratedFrom()
	if from == "" {
		return nil
	}
	if manifest.Located(from) {
		file := m.GeneratedIn(mdir)
		var out []string
		for _, d := range a.dirs {
			if d == filepath.Dir(file) {
				if _, err := os.Stat(file); err == nil {
					out = append(out, d)
				}
			}
		}
		return out
	}
	base, file := path.Dir(from), path.Base(from)
	var out []string
	for _, d := range a.dirs {
		if filepath.Base(d) != base {
			continue
		}
		if _, err := os.Stat(filepath.Join(d, file)); err == nil {
			out = append(out, d)
		}
	}
	return out
}

// manifestDir returns the folder of the manifest file, as given
// (relative to the working directory), made absolute.
func (a *projects) manifestDir(file string) string {
	return filepath.Dir(resolve(a.wd, file))
}

// dirsOf returns the project folders of module name. Where several
// projects have it and some were named without loading, those are
// converted first (once), to be sure of their module: a project that does
// not convert to it does not make it ambiguous.
func (a *projects) dirsOf(ctx context.Context, name string) []string {
	dirs := a.byModule[name]
	if len(dirs) < 2 {
		return dirs
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	if c, ok := a.confirmed[name]; ok {
		return c
	}
	var sure []string
	for _, d := range dirs {
		if a.quick[d] {
			if res, _ := a.convertAt(ctx, d, "", a.opts); moduleOf(res) != name {
				continue
			}
		}
		sure = append(sure, d)
	}
	a.confirmed[name] = sure
	return sure
}

// convertSome converts the projects found[i] for each i of which, cfg.Jobs
// at a time, and sets names[i] to the module each converts to ("" when it
// could not be converted at all), keeping nothing else.
func (a *projects) convertSome(ctx context.Context, cfg Config, found []batch.Project, which []int, names []string) error {
	some := make([]batch.Project, len(which))
	for k, i := range which {
		some[k] = found[i]
	}
	var mu sync.Mutex
	return batch.Runner{Timeout: cfg.ProjectTimeout}.Each(ctx, some, cfg.Jobs, cfg.Convert, func(k int, res *convert.Result, err error) {
		mu.Lock()
		defer mu.Unlock()
		names[which[k]] = ""
		if err == nil {
			names[which[k]] = moduleOf(res)
		}
	})
}

// moduleOf returns the module a conversion produced or refused, or "".
func moduleOf(res *convert.Result) string {
	if m := resultModule(res); m != nil {
		return m.Module
	}
	return ""
}

// errorAt returns an error diagnostic at m's position in file.
func errorAt(m *manifest.Module, file, msg string) rules.Diagnostic {
	pos := m.Pos
	if pos.File == "" {
		pos = manifest.Pos{File: file, Line: m.Pos.Line}
	}
	return rules.Diagnostic{Severity: rules.Error, File: pos.File, Line: pos.Line, Module: m.Module, Message: msg}
}

// check holds m against its project: it gathers the facts of a
// rules.AgainstPass, converting the project again unless m is current,
// runs the rules over them, and adds the conversion's own errors, or the
// failure to convert again. file is the manifest's file name as given;
// t tells what m's bytes are (text); full returns m with its containers,
// when m lacks them (a cache entry's), for comparing with a conversion.
//
// It sets *found to the project's folder when it finds one.
func (a *projects) check(ctx context.Context, list []*rules.Rule, file string, m *manifest.Module, t text, full func() *manifest.Module, found *string) []rules.Diagnostic {
	pass := &rules.AgainstPass{Manifest: m, File: file, Root: a.root, Unconverted: a.failed}
	if len(m.Sources) == 0 {
		return rules.RunAgainst(list, pass)
	}
	dir, first, candidates, err := a.find(ctx, m, a.manifestDir(file))
	if len(candidates) == 0 {
		*found = dir
	}
	a.mu.Lock()
	if dir != "" && first == "" {
		// Made from the folder's own project; one made from another
		// compose file there (first) leaves that project to a
		// manifest of its own.
		a.matched[dir] = true
	}
	for _, c := range candidates {
		a.matched[filepath.Join(a.root, filepath.FromSlash(c))] = true
	}
	a.mu.Unlock()
	if len(candidates) > 0 {
		pass.Candidates = candidates
		return rules.RunAgainst(list, pass)
	}
	if dir == "" {
		out := rules.RunAgainst(list, pass)
		if err != nil {
			out = append(out, errorAt(m, file, fmt.Sprintf("finding the project of module %q: %v", m.Module, err)))
		}
		return out
	}
	rel := relPath(a.wd, dir)
	pass.Project = rel
	a.mu.Lock()
	for _, s := range m.Sources {
		if p := filepath.Join(dir, filepath.FromSlash(s.File)); project.Within(a.root, p) {
			a.read[p] = true
		}
	}
	a.mu.Unlock()
	recorded := map[string]bool{}
	unchanged := true
	for _, s := range m.Sources {
		recorded[s.File] = true
		sc := a.source(dir, s)
		unchanged = unchanged && sc.State == rules.SourceUnchanged
		pass.Sources = append(pass.Sources, sc)
	}
	if bad := a.settingOutside(dir, m.ConvertedWith); bad != "" {
		// A manifest names what check reads: never outside the root.
		pos := m.Pos
		if cw := m.ConvertedWith; cw != nil && cw.Pos.File != "" {
			pos = cw.Pos
		}
		d := errorAt(&manifest.Module{Module: m.Module, Pos: pos}, file, fmt.Sprintf("converted_with names %s, which lies outside %s; not read, and the project is not converted again: convert it with files inside %s", bad, relPath(a.wd, a.root), relPath(a.wd, a.root)))
		return append(rules.RunAgainst(list, pass), d)
	}
	opts := settingsFor(a.opts, m.ConvertedWith)
	if manifest.Located(m.GeneratedFrom()) {
		// Written to its folder: converted again as if written there, so
		// the header names the compose file from there, as convert -o
		// does. A manifest printed (its header names the compose file in
		// the project folder) is converted as printed.
		opts.ManifestDir = a.manifestDir(file)
	}
	if cw := m.ConvertedWith; first == "" && cw != nil && len(cw.ComposeFiles) > 0 && len(a.opts.ConfigFiles) == 0 {
		// Found as the folder's own project, by its module: it must
		// be made from what docker compose reads there.
		without := project.FilesWithoutFlag(dir, a.opts.Environ)
		own := false
		for _, f := range cw.ComposeFiles {
			own = own || slices.Contains(without, filepath.Join(dir, filepath.FromSlash(f)))
		}
		if len(without) > 0 && !own {
			var read []string
			for _, f := range without {
				read = append(read, relPath(dir, f))
			}
			return append(rules.RunAgainst(list, pass), rules.OtherProjectFiles(file, m, strings.Join(cw.ComposeFiles, " and "), rel, strings.Join(read, " and ")))
		}
	}
	if err == nil && t.generated && unchanged && !a.reconvert && convert.FingerprintHolds(dir, m, opts) {
		return rules.RunAgainst(list, pass) // nothing converts differently
	}
	if whole := full(); whole != nil {
		m = whole
		pass.Manifest = m
	}
	var res *convert.Result
	if err == nil {
		a.converted.Add(1)
		res, err = a.convertAt(ctx, dir, first, opts)
	}
	var own []rules.Diagnostic
	if err != nil || res == nil {
		return append(rules.RunAgainst(list, pass), errorAt(m, file, fmt.Sprintf("converting %s again: %v", rel, err)))
	}
	c := &rules.Conversion{Module: resultModule(res), Refused: res.Status != convert.Converted}
	if f := m.Fingerprint; f != nil {
		c.VariablesChanged = convert.VariablesDigest(f.Variables, opts.Environ) != f.VariablesSHA256
		if c.DigestHolds = t.generated; c.DigestHolds && f.Conversion != convert.ConversionVersion {
			c.EarlierConversion = f.Conversion
		}
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
		if data, err := manifest.Encode(c.Module); err == nil {
			_, fresh, _ := manifest.BodyDigest(data)
			c.TextDiffers = t.body != "" && t.body != fresh
		}
	}
	pass.Conversion = c
	return append(own, rules.RunAgainst(list, pass)...)
}

// source holds the recorded source s against the file it names in the
// project folder dir. A name outside the root is not read: a manifest must
// not make check read files there; the defaults file check was given
// (--defaults) is read wherever it lies, as the person named it.
func (a *projects) source(dir string, s manifest.Source) rules.SourceCheck {
	sc := rules.SourceCheck{Source: s, State: rules.SourceUnchanged}
	p := filepath.Join(dir, filepath.FromSlash(s.File))
	named := a.opts.DefaultsFile != "" && !filepath.IsAbs(filepath.FromSlash(s.File)) && p == filepath.Clean(a.opts.DefaultsFile)
	if !named && (filepath.IsAbs(filepath.FromSlash(s.File)) || !project.Within(a.root, p)) {
		sc.State = rules.SourceOutside
		return sc
	}
	// A recorded source is read only when it is a bounded regular file
	// that lies, after symbolic links, inside the root: a link to
	// /etc/shadow must not be hashed and its digest printed.
	if real, err := filepath.EvalSymlinks(p); err == nil && !named {
		if a.realRoot == "" || !project.Within(a.realRoot, real) {
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

// find returns the project folder under root whose module is m's (m read
// from a file in mdir), and
// the compose file to convert it from ("" for its default files); or,
// when several projects have that module, their paths relative to root.
// A manifest whose first source is not a name batch.Discover finds is
// looked for among the folders holding that file (inside root), each
// converted once to learn its module.
func (a *projects) find(ctx context.Context, m *manifest.Module, mdir string) (dir, file string, candidates []string, err error) {
	byName := func() []string { return a.dirsOf(ctx, m.Module) }
	byFlag := func() []string { return a.namedByFlag(m, mdir) }
	for _, lookup := range []func() []string{byName, byFlag} {
		switch dirs := lookup(); {
		case len(dirs) == 1:
			return dirs[0], "", nil, nil
		case len(dirs) > 1:
			for _, d := range dirs {
				candidates = append(candidates, relPath(a.root, d))
			}
			return "", "", candidates, nil
		}
	}
	first := filepath.FromSlash(m.Sources[0].File)
	if project.IsDefaultFileName(m.Sources[0].File) || !filepath.IsLocal(first) {
		return "", "", nil, nil
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	holders, ok := a.holders[first]
	if !ok {
		err := filepath.WalkDir(a.root, func(dir string, d fs.DirEntry, err error) error {
			if err != nil || !d.IsDir() {
				return nil
			}
			if name := d.Name(); dir != a.root && (name == ".git" || name == "node_modules") {
				return filepath.SkipDir
			}
			if _, err := os.Stat(filepath.Join(dir, first)); err == nil {
				holders = append(holders, dir)
			}
			return nil
		})
		if err != nil {
			return "", "", nil, err
		}
		a.holders[first] = holders
	}
	var found []string
	var lastErr error
	for _, dir := range holders {
		key := filepath.Join(dir, first) // a folder may hold several such files
		name, ok := a.others[key]
		if !ok {
			res, err := a.convertAt(ctx, dir, first, a.opts)
			if err != nil {
				lastErr = err
			}
			name = moduleOf(res)
			a.others[key] = name
		}
		if name == m.Module {
			found = append(found, relPath(a.root, dir))
		}
	}
	switch {
	case len(found) > 1:
		return "", "", found, nil
	case len(found) == 1:
		return filepath.Join(a.root, filepath.FromSlash(found[0])), first, nil, nil
	}
	return "", "", nil, lastErr
}

// relPath returns p relative to base when it lies below it, else p.
func relPath(base, p string) string {
	if !project.Within(base, p) {
		return filepath.ToSlash(p)
	}
	r, _ := filepath.Rel(base, p)
	return filepath.ToSlash(r)
}

// settingOutside returns the first path a manifest's converted_with
// records (compose files, declarations, env files, allowed folders),
// relative to the project folder dir, that is not inside the root, after
// symbolic links, as written; "" when none is. check --against converts
// with them, so a manifest would otherwise make it read any file on the
// machine.
func (a *projects) settingOutside(dir string, rec *manifest.Settings) string {
	if rec == nil {
		return ""
	}
	// Only what check converts with: a setting given to check wins
	// (settingsFor), and its own paths are the caller's.
	var all []string
	if len(a.opts.ConfigFiles) == 0 {
		all = append(all, rec.ComposeFiles...)
	}
	if rec.Declarations != "" && a.opts.DeclarationsFile == "" {
		all = append(all, rec.Declarations)
	}
	if rec.Survey != "" && a.opts.SurveyFile == "" {
		all = append(all, rec.Survey)
	}
	if len(a.opts.EnvFiles) == 0 {
		all = append(all, rec.EnvFiles...)
	}
	if len(a.opts.AllowDirs) == 0 {
		all = append(all, rec.AllowDirs...)
	}
	for _, s := range all {
		p := filepath.Join(dir, filepath.FromSlash(s))
		if filepath.IsAbs(filepath.FromSlash(s)) || !project.Within(a.root, p) {
			return s
		}
		if real, err := filepath.EvalSymlinks(p); err == nil && (a.realRoot == "" || !project.Within(a.realRoot, real)) {
			return s
		}
	}
	return ""
}

// settingsFor returns the options to convert a manifest's project with:
// given's settings where check was given them (a non-empty value, or
// Strict), else those the manifest records (converted_with).
func settingsFor(given convert.Options, rec *manifest.Settings) convert.Options {
	o := given
	if rec == nil {
		return o
	}
	if len(o.ConfigFiles) == 0 {
		o.ConfigFiles = fromSlash(rec.ComposeFiles)
	}
	if o.DeclarationsFile == "" && rec.Declarations != "" {
		o.DeclarationsFile = filepath.FromSlash(rec.Declarations)
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
	if o.Layout == "" {
		o.Layout = rec.Layout
	}
	if o.ProjectName == "" {
		o.ProjectName = rec.ProjectName
	}
	if o.SurveyFile == "" && o.Survey == nil && rec.Survey != "" {
		o.SurveyFile = filepath.FromSlash(rec.Survey)
	}
	return o
}

// resultModule returns the module a conversion produced or refused, or nil.
func resultModule(res *convert.Result) *manifest.Module {
	switch {
	case res == nil:
		return nil
	case res.Module != nil:
		return res.Module
	}
	return res.Candidate
}

// convertAt converts the project in dir with opts, from file (relative
// to dir) or, when file is "", its default compose files. It never
// panics: a panic in a library is an error.
func (a *projects) convertAt(ctx context.Context, dir, file string, opts convert.Options) (res *convert.Result, err error) {
	defer func() {
		if r := recover(); r != nil {
			res, err = nil, fmt.Errorf("internal error converting %s: %v", dir, r)
		}
	}()
	opts.ProjectDirectory, opts.WorkingDirectory = dir, dir
	if file != "" && len(opts.ConfigFiles) == 0 {
		opts.ConfigFiles = []string{filepath.Join(dir, file)}
	}
	if a.timeout <= 0 {
		return convert.Convert(ctx, opts)
	}
	// As a batch converts a project: abandoned when the time is up.
	if runErr := (batch.Runner{Timeout: a.timeout}).Each(ctx, []batch.Project{{Dir: dir}}, 1, opts, func(_ int, r *convert.Result, e error) {
		res, err = r, e
	}); runErr != nil {
		return nil, runErr
	}
	return res, err
}

// fromSlash returns slash-separated paths in the system's form.
func fromSlash(ps []string) []string {
	var out []string
	for _, p := range ps {
		out = append(out, filepath.FromSlash(p))
	}
	return out
}
