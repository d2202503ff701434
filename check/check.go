// Package check is compose2manifest's second driver over the rules, the
// one behind the check command and its CI gate. Manifests decodes module
// manifests strictly and runs every rule over each and over all of them
// together; Against also converts each manifest's compose project again
// and holds the manifest against that conversion.
//
// Both return their findings as data, a report.Report, never printing or
// exiting: the command chooses the format and the exit status.
package check

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/compose2manifest/compose2manifest/batch"
	"github.com/compose2manifest/compose2manifest/convert"
	"github.com/compose2manifest/compose2manifest/internal/atomicfile"
	"github.com/compose2manifest/compose2manifest/internal/bound"
	"github.com/compose2manifest/compose2manifest/internal/fsread"
	"github.com/compose2manifest/compose2manifest/manifest"
	"github.com/compose2manifest/compose2manifest/project"
	"github.com/compose2manifest/compose2manifest/report"
	"github.com/compose2manifest/compose2manifest/rules"
)

// Config says how to check.
type Config struct {
	// Dir is the directory relative paths are taken from; "" means the
	// process's working directory. The report names files as they were
	// given, relative or not.
	Dir string
	// Rules are the rules to run; nil means rules.All().
	Rules []*rules.Rule
	// WarningsAsErrors gives a module with warnings but no errors the
	// status report.Findings rather than report.Checked.
	WarningsAsErrors bool
	// Convert holds the options Against converts every project with, as
	// convert's flags give them (VolumeRoot, HostProjectDirectory,
	// Strict, Profiles, EnvFiles, Environ). Each project's directories and
	// compose files are Against's to set, so ConfigFiles,
	// ProjectDirectory and WorkingDirectory must be empty.
	Convert convert.Options
	// Jobs is how many projects Against converts at once; 0 or less means
	// runtime.GOMAXPROCS.
	Jobs int
	// Reconvert makes Against convert every manifest's project again,
	// even one whose fingerprint says it is current.
	Reconvert bool
	// ProjectTimeout bounds each conversion Against makes: a project still
	// converting after it is reported as failed to convert (its
	// conversion abandoned) and the check goes on; 0 means no limit.
	// compose-go cannot be interrupted, and a project under ROOT is the
	// pull request's to make as slow as it likes. It bounds Manifests as
	// a whole (see TimeoutError).
	ProjectTimeout time.Duration
	// Cache is the folder where Against and Manifests keep each manifest
	// file they read, decoded without its containers, and the module
	// rules' findings, for a later run to take instead of decoding the
	// same bytes again (CacheDir gives the usual one); "" for none. (The
	// entries of Manifests and Against are apart: Manifests also reports
	// a manifest edited since it was converted.) Like the fingerprint,
	// it guards against accidents, not against whoever can write it:
	// Reconvert uses none.
	Cache string
	// TuneGC makes Against set the soft memory limit for its work, as
	// the command does unless GOGC or GOMEMLIMIT is set: it keeps each
	// manifest without its containers, so batch.MemoryLimitBase, and
	// MemoryLimitPerUncached more for each manifest the cache has no
	// entry for (its entry is built, and kept until the run ends).
	TuneGC bool
	// Exclude are the patterns of project folders under the root Against
	// leaves out, as batch.Discover takes them (convert --batch's
	// --exclude).
	Exclude []string
	// Shard, when set, has Against check only one part of the projects
	// under the root (check --against --shard K/N): the manifests made
	// from its projects (one made from none by its file name), its
	// projects without a manifest, and what it would list as not
	// converted. The rules over all manifests then see only its
	// manifests; a plain check of every manifest runs them over all.
	Shard batch.Shard
	// Progress, when not nil, is called after each manifest Against
	// checks, with how many are done of how many (never two calls at
	// once): batch.Progress.Update draws it on a terminal.
	Progress func(done, total int)
}

// Result is the outcome of a check.
type Result struct {
	// Report holds one module per manifest file, in the order the paths
	// named them. A manifest that could not be read or decoded has status
	// report.Failed and its errors, in line order, as diagnostics (with no
	// rule, or with the rule a decode error breaks). Every other has status
	// report.Checked or report.Findings and its findings ordered by
	// rules.Sort.
	Report *report.Report
	// Manifests are the decoded manifests, index for index beside
	// Report.Modules; nil where a module failed. Against, and Manifests
	// with a Cache, keep them without their containers, to bound their
	// memory (AddPrevious reads again those Manifests kept).
	Manifests []*manifest.Module
	// Errors are the paths that named no manifest file, each a *PathError,
	// in the order given.
	Errors []error
	// Converted counts the projects Against converted again to compare a
	// manifest with (not those it converted only to learn their module).
	Converted int
	// Unmanifested counts the modules of Report that are projects under
	// Against's root with no manifest (C2M008 at their compose file), not
	// manifests.
	Unmanifested int
	// NotConverted is what Against, checking a folder of manifests, finds
	// under its root that convert --batch lists as not converted: compose
	// files no project reads (none of the manifests records it), those
	// below node_modules, symbolic links to folders.
	NotConverted []batch.Skipped
	// generated reports, beside Manifests, which manifests' bytes are
	// exactly what a conversion wrote (their body digest holds).
	generated []bool
	// reread says that Manifests are kept without their containers
	// (Against, Manifests with a cache), which AddPrevious decodes again.
	reread bool
}

// ReportWithErrors returns Report with a failed module for each of
// Errors, its error as a diagnostic naming the path: what a report that
// goes elsewhere than the terminal (JSON, SARIF, GitHub annotations) must
// hold, so that an unreadable input is never an empty, clean-looking run.
func (r *Result) ReportWithErrors() *report.Report {
	out := *r.Report
	out.Modules = append([]report.Module(nil), r.Report.Modules...)
	for _, err := range r.Errors {
		d := rules.Diagnostic{Severity: rules.Error, Message: err.Error()}
		var pe *PathError
		if errors.As(err, &pe) {
			d.File, d.Message = pe.Path, pe.Err.Error()
		}
		out.Modules = append(out.Modules, report.Module{Status: report.Failed, Diagnostics: []rules.Diagnostic{d}})
	}
	return &out
}

// PathError is a path given to check that names no manifest: one that
// cannot be read, or a directory without *.yaml or *.yml files.
type PathError struct {
	// Path is the path as given.
	Path string
	// Err is why: the file system's reason, without the path.
	Err error
}

// Error returns "PATH: REASON".
func (e *PathError) Error() string { return e.Path + ": " + e.Err.Error() }

// Unwrap returns e.Err.
func (e *PathError) Unwrap() error { return e.Err }

// errNoManifests is why a directory names no manifest.
var errNoManifests = errors.New("no manifests (*.yaml or *.yml files) in this directory")

// errLinkOut is the reason a manifest that is a symbolic link out of its
// folder is not read.
var errLinkOut = errors.New("a symbolic link out of its folder (or to nothing); not read")

// Unreadable reports whether some path named no manifest or some manifest
// could not be read or decoded.
func (r *Result) Unreadable() bool {
	if len(r.Errors) > 0 {
		return true
	}
	for _, m := range r.Report.Modules {
		if m.Status == report.Failed {
			return true
		}
	}
	return false
}

// Count returns how many errors and warnings the manifests that were read
// have; a manifest that failed to decode is not counted.
func (r *Result) Count() (errors, warnings int) {
	for _, m := range r.Report.Modules {
		if m.Status != report.Failed {
			ne, nw := report.Count(&report.Report{Modules: []report.Module{m}})
			errors, warnings = errors+ne, warnings+nw
		}
	}
	return errors, warnings
}

// Manifests checks the manifests paths name: a file stands for itself, a
// directory for the *.yaml and *.yml files directly in it, sorted, leaving
// out names that start with "."; a file named twice is checked once. It
// decodes each strictly (manifest.Decode), runs every rule of cfg.Rules
// with a Check over each (rules.Run) and every rule with a CheckSet over
// all that decoded (as a batch runs them: batch.RunSet), each finding in
// its manifest's module.
// A path that names no manifest is in Result.Errors; a manifest that does
// not decode is a failed module; the others are still checked.
//
// Still running after cfg.ProjectTimeout (when more than 0), it returns a
// Result whose errors are, for each path, a *PathError of a
// *TimeoutError, and the work left stops at the next manifest.
func Manifests(cfg Config, paths []string) *Result {
	res, err := bound.Run(context.Background(), cfg.ProjectTimeout, func(ctx context.Context) *Result {
		res := read(ctx, cfg, paths)
		if ctx.Err() != nil {
			return nil // cut short
		}
		res.finish(cfg)
		return res
	})
	if err != nil || res == nil {
		res = &Result{Report: &report.Report{Modules: []report.Module{}}}
		for _, p := range paths {
			res.Errors = append(res.Errors, &PathError{Path: p, Err: &TimeoutError{Timeout: cfg.ProjectTimeout}})
		}
	}
	return res
}

// TimeoutError is the error of a check of manifests still running after
// Config.ProjectTimeout: it was abandoned.
type TimeoutError struct {
	Timeout time.Duration
}

func (e *TimeoutError) Error() string {
	return fmt.Sprintf("not checked within %s (--project-timeout): abandoned", e.Timeout)
}

// read is Manifests without the bound, the final ordering and statuses.
func read(ctx context.Context, cfg Config, paths []string) *Result {
	ch := newCache(cfg.Cache, cfg.Dir, cfg.rules(), paths, true)
	res := readEach(ctx, cfg, paths, ch, nil, nil)
	res.reread = ch != nil
	return res
}

// readEach is read, calling each, when not nil, for every manifest that
// decoded, as soon as it is checked alone: what it returns is added to the
// manifest's findings, and only the manifest without its containers is
// kept (what the rules over all manifests read), so that memory does not
// grow with the size of every manifest.
//
// ch, when not nil, is the cache each manifest is looked up in first;
// shown, when not nil, rewrites each message of the rules over all
// manifests for people (batch.CheckoutShown).
// A manifest for which each returns false is left out of the Result, as
// if not given (another shard's).
//
// Once ctx is done, no manifest more is read (what is left is not
// reported: the caller drops the Result).
func readEach(ctx context.Context, cfg Config, paths []string, ch *cache, each func(file string, m *manifest.Module, t text, full func() *manifest.Module) ([]rules.Diagnostic, bool), shown func(string) string) *Result {
	list := cfg.rules()
	res := &Result{Report: &report.Report{Modules: []report.Module{}}}
	var files []string
	files, res.Errors = manifestFiles(cfg.Dir, paths)
	// Each manifest is decoded and checked alone, cfg.Jobs at a time;
	// the results keep the order of the files.
	type one struct {
		mod       report.Module
		m         *manifest.Module
		generated bool
		dropped   bool // another shard's
	}
	done := make([]one, len(files))
	var mu sync.Mutex
	finished := 0
	parallel(len(files), cfg.Jobs, func(i int) {
		if cfg.Progress != nil && each != nil {
			defer func() {
				mu.Lock()
				defer mu.Unlock()
				finished++
				cfg.Progress(finished, len(files))
			}()
		}
		if ctx.Err() != nil {
			return
		}
		file := files[i]
		mod := report.Module{Module: file, File: file}
		abs, _ := filepath.Abs(resolve(cfg.Dir, file))
		data, err := readManifest(cfg.Dir, file)
		var m *manifest.Module
		var t text
		hit := false
		if err == nil && ch != nil {
			m, mod.Diagnostics, t, hit = ch.get(file, abs, data)
		}
		if err == nil && !hit {
			m, err = manifest.Decode(file, data)
		}
		if err != nil {
			mod.Status = report.Failed
			mod.Diagnostics = decodeDiagnostics(file, err)
			done[i] = one{mod: mod}
			return
		}
		if !hit {
			mod.Diagnostics, t = rules.Run(list, m), textOf(data)
			if d := rules.EditedSinceConverted(file, m); each == nil && t.body != "" && !t.generated && atomicfile.Generated(data) &&
				slices.ContainsFunc(list, func(r *rules.Rule) bool { return r.ID == d.Rule }) {
				// Plain check: --against compares with a conversion.
				mod.Diagnostics = append(mod.Diagnostics, d)
			}
			if ch != nil {
				ch.put(file, abs, data, m, mod.Diagnostics, t)
				if each == nil {
					m = withoutContainers(m) // as a hit has it
				}
			}
		}
		mod.Module = m.Module
		if each != nil {
			// The whole manifest, containers too, for a comparison
			// with a conversion: a cache entry has none.
			full := func() *manifest.Module {
				if !hit {
					return m
				}
				whole, _ := manifest.Decode(file, data)
				return whole
			}
			more, keep := each(file, m, t, full)
			if !keep {
				done[i] = one{dropped: true}
				return
			}
			mod.Diagnostics = append(slices.Clip(mod.Diagnostics), more...)
			if !hit {
				m = withoutContainers(m)
			}
			m.Fingerprint = nil // judged; the rules over all manifests read none
		}
		done[i] = one{mod: mod, m: m, generated: t.generated}
	})
	if ch != nil {
		ch.save()
	}
	var modules []*manifest.Module
	index := map[string]int{} // file -> Report.Modules index
	for i, d := range done {
		if d.dropped {
			continue
		}
		if d.m != nil {
			index[files[i]] = len(res.Report.Modules)
			modules = append(modules, d.m)
		}
		res.Report.Modules = append(res.Report.Modules, d.mod)
		res.Manifests = append(res.Manifests, d.m)
		res.generated = append(res.generated, d.generated)
	}
	for _, d := range batch.RunSet(list, modules) {
		if shown != nil {
			d.Message = shown(d.Message)
		}
		i, ok := index[d.File]
		if !ok {
			i = moduleIndex(res.Report, d.Module)
		}
		res.Report.Modules[i].Diagnostics = append(res.Report.Modules[i].Diagnostics, d)
	}
	return res
}

// withoutContainers returns a copy of m without its container resources.
// (readEach keeps it without its fingerprint too.)
func withoutContainers(m *manifest.Module) *manifest.Module {
	c := *m
	c.Resources = nil
	for _, r := range m.Resources {
		if r.Kind != manifest.KindContainer {
			c.Resources = append(c.Resources, r)
		}
	}
	return &c
}

// parallel calls fn(i) for every i below n, jobs at a time (0 or less:
// GOMAXPROCS), and returns when all have returned.
func parallel(n, jobs int, fn func(i int)) {
	if jobs < 1 {
		jobs = runtime.GOMAXPROCS(0)
	}
	next := make(chan int)
	var wg sync.WaitGroup
	for range min(jobs, n) {
		wg.Go(func() {
			for i := range next {
				fn(i)
			}
		})
	}
	for i := range n {
		next <- i
	}
	close(next)
	wg.Wait()
}

// finish fills in the fixes, orders the findings of every module that was
// read and sets its status.
func (r *Result) finish(cfg Config) {
	list := cfg.rules()
	for i := range r.Report.Modules {
		m := &r.Report.Modules[i]
		if m.Status == report.Failed {
			continue
		}
		rules.FillFixes(list, m.Diagnostics)
		rules.Sort(m.Diagnostics)
		ne, nw := report.Count(&report.Report{Modules: []report.Module{*m}})
		m.Status = report.Checked
		if ne > 0 || (cfg.WarningsAsErrors && nw > 0) {
			m.Status = report.Findings
		}
	}
}

func (cfg Config) rules() []*rules.Rule {
	if cfg.Rules == nil {
		return rules.All()
	}
	return cfg.Rules
}

// text is what decode tells of a manifest's bytes.
type text struct {
	// body is the sha256 of its body (manifest.BodyDigest's actual), ""
	// when it does not end with a fingerprint's body digest.
	body string
	// generated reports that its bytes are exactly what a conversion
	// wrote: the body digest it records is body.
	generated bool
}

// readManifest reads the manifest file names, bounded.
func readManifest(dir, file string) ([]byte, error) {
	data, err := fsread.File("manifest", resolve(dir, file), manifest.MaxSize)
	if err != nil {
		return nil, &manifest.Error{Pos: manifest.Pos{File: file}, Msg: "cannot read: " + pathErr(err).Error()}
	}
	return data, nil
}

// textOf tells what a manifest's bytes are (text).
func textOf(data []byte) text {
	rec, actual, ok := manifest.BodyDigest(data)
	if !ok {
		return text{}
	}
	return text{body: actual, generated: rec == actual}
}

// decodeDiagnostics turns what decode returned into error diagnostics.
func decodeDiagnostics(file string, err error) []rules.Diagnostic {
	var errs manifest.Errors
	var one *manifest.Error
	switch {
	case errors.As(err, &errs):
	case errors.As(err, &one):
		errs = manifest.Errors{one}
	default:
		errs = manifest.Errors{{Pos: manifest.Pos{File: file}, Msg: err.Error()}}
	}
	var out []rules.Diagnostic
	for i, de := range errs {
		if i == maxDecodeErrors {
			// A file of a million bad lines is not a million
			// annotations.
			last := rules.Decoded(de)
			last.Message = fmt.Sprintf("and %d more errors in this file, not listed", len(errs)-i)
			out = append(out, last)
			break
		}
		out = append(out, rules.Decoded(de))
	}
	return out
}

// maxDecodeErrors is how many decode errors of one manifest are listed.
const maxDecodeErrors = 100

// moduleIndex returns the index of the first module of rep named name that
// was checked, or of the first checked module.
func moduleIndex(rep *report.Report, name string) int {
	first := -1
	for i, m := range rep.Modules {
		if m.Status == report.Failed {
			continue
		}
		if m.Module == name {
			return i
		}
		if first < 0 {
			first = i
		}
	}
	return first
}

// manifestFiles expands paths into manifest files, named as given (see
// Manifests), and returns a *PathError for each path it cannot use.
func manifestFiles(dir string, paths []string) ([]string, []error) {
	var files []string
	var errs []error
	seen := map[string]bool{}
	add := func(name string) {
		if key := filepath.Clean(resolve(dir, name)); !seen[key] {
			seen[key] = true
			files = append(files, name)
		}
	}
	for _, p := range paths {
		fi, err := os.Stat(resolve(dir, p))
		if err != nil {
			errs = append(errs, &PathError{p, pathErr(err)})
			continue
		}
		if !fi.IsDir() {
			add(p)
			continue
		}
		entries, err := os.ReadDir(resolve(dir, p))
		if err != nil {
			errs = append(errs, &PathError{p, pathErr(err)})
			continue
		}
		n := 0
		realDir, _ := filepath.EvalSymlinks(resolve(dir, p))
		for _, ent := range entries {
			name := ent.Name()
			if ent.IsDir() || !isManifestName(name) {
				continue
			}
			if ent.Type()&fs.ModeSymlink != 0 {
				// A link in a folder of manifests is the pull request's
				// to make: one leading out of the folder is not read,
				// lest its target's text end up in the report.
				real, err := filepath.EvalSymlinks(filepath.Join(resolve(dir, p), name))
				if err != nil || realDir == "" || !project.Within(realDir, real) {
					errs = append(errs, &PathError{filepath.Join(p, name), errLinkOut})
					n++
					continue
				}
			}
			add(filepath.Join(p, name))
			n++
		}
		if n == 0 {
			errs = append(errs, &PathError{p, errNoManifests})
		}
	}
	return files, errs
}

// resolve returns name resolved against dir.
func resolve(dir, name string) string {
	if filepath.IsAbs(name) || dir == "" {
		return name
	}
	return filepath.Join(dir, name)
}

// pathErr returns the reason of a file system error without the path,
// which the caller names as it was given.
func pathErr(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// isManifestName reports whether a file named name in a folder given to
// check is read as a manifest: a .yaml or .yml file not hidden.
func isManifestName(name string) bool {
	ext := path.Ext(name)
	return !strings.HasPrefix(name, ".") && (ext == ".yaml" || ext == ".yml")
}
