package batch

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/compose2manifest/compose2manifest/convert"
	"github.com/compose2manifest/compose2manifest/declare"
	"github.com/compose2manifest/compose2manifest/internal/fsread"
	"github.com/compose2manifest/compose2manifest/manifest"
	"github.com/compose2manifest/compose2manifest/project"
	"github.com/compose2manifest/compose2manifest/rules"
)

// Config says what to convert and where the manifests go.
type Config struct {
	// Root is the folder searched for projects, as the user wrote it:
	// paths in the report start with it.
	Root string
	// Excludes are folder patterns not searched (see Excluded).
	Excludes []string
	// Out is the output folder; created (see Run) when the first manifest
	// is staged. It is never searched for projects. The report shows it as
	// written.
	Out string
	// WorkingDirectory is where a relative Root or Out is taken from;
	// empty means the process's.
	WorkingDirectory string
	// Force lets a manifest replace a file in Out that compose2manifest
	// did not generate.
	Force bool
	// Jobs is how many projects are converted at once; 0 or less means
	// runtime.GOMAXPROCS.
	Jobs int
	// Convert holds the options every project is converted with. Each
	// project's ProjectDirectory and WorkingDirectory are its folder, and
	// its compose files are found there as docker compose finds them
	// (with their override file), so ConfigFiles, ProjectDirectory,
	// EnvFiles, ProjectName and DeclarationsFile must be empty.
	Convert convert.Options
	// IncludeFiles are file patterns (matched as Excludes are, against
	// the path relative to Root and the base name): a file that looks
	// like a compose file (project.LooksLikeCompose), that no project
	// reads and that one of them matches is converted as a project of its
	// own, with -f that file, from its folder. Other such files are
	// reported as Skipped.
	IncludeFiles []string
	// Progress, when not nil, is called after each project is converted
	// with how many are done out of how many. Calls never overlap.
	Progress func(done, total int)
	// ProjectTimeout, when more than zero, bounds the conversion of one
	// project: a project still converting after it is reported as failed
	// and the batch moves on (see Each).
	ProjectTimeout time.Duration
	// ConvertFunc, when not nil, converts one project instead of
	// convert.Convert: a test hook for slow, stuck or panicking projects.
	ConvertFunc func(ctx context.Context, opts convert.Options) (*convert.Result, error)
	// TuneGC, when set, has Run tune the garbage collector for the batch
	// once the projects are discovered (see TuneGC). The command sets it
	// unless GOGC or GOMEMLIMIT is set.
	TuneGC bool
	// Shard, when set, limits the batch to the projects of one part
	// (--shard K/N): only they are converted and written, and only what
	// lies in that part is listed as not converted or orphaned. The rules
	// that span modules run over the shard's modules alone; a plain check
	// of every shard's manifests runs them over all.
	Shard Shard
	// create, when not nil, creates the files a batch writes in the
	// output folder (the staged manifests, the commit journal) instead of
	// os.OpenFile: a test hook for a full disk.
	create createFunc
}

// Runner says how Each converts one project: with what function, and
// within what time. The zero Runner is convert.Convert without a limit.
type Runner struct {
	// Convert replaces convert.Convert when not nil.
	Convert func(ctx context.Context, opts convert.Options) (*convert.Result, error)
	// Timeout, when more than zero, is the time one project may take.
	Timeout time.Duration
	// Share, when set, offers kind: host for an absolute bind source that
	// several projects of the batch mount (convert.Result.OfferShared): a
	// refused project with an absolute bind source nothing declares is
	// reported only once every project is converted, with what the others
	// mount.
	Share bool
}

// InternalError is the error of a project whose conversion panicked: a
// bug of compose2manifest or of a library, never the project's fault.
type InternalError struct {
	// Project is the project's folder.
	Project string
	// Value is what the conversion panicked with.
	Value any
}

func (e *InternalError) Error() string {
	return fmt.Sprintf("internal error: %v; please report it", e.Value)
}

// TimeoutError is the error of a project still converting after
// Runner.Timeout: its conversion was abandoned (a stuck call cannot be
// interrupted), and the batch went on without it.
type TimeoutError struct {
	Timeout time.Duration
}

func (e *TimeoutError) Error() string {
	return fmt.Sprintf("not converted within %s (--project-timeout): abandoned, the other projects went on", e.Timeout)
}

// WriteOutcome says what happened to a converted module's manifest file.
type WriteOutcome string

// Outcomes of writing a manifest.
const (
	// Written: the manifest file was created or replaced.
	Written WriteOutcome = "written"
	// Unchanged: the file already held exactly this manifest.
	Unchanged WriteOutcome = "unchanged"
)

// Entry is the outcome of one project.
type Entry struct {
	// Project is the project's folder as Config.Root joined with its
	// relative path, slash-separated.
	Project string
	// Module is the module name. For a project that failed before a
	// module was built, it is the name the project states explicitly
	// (module:, the compose name:), or empty when that is not known for
	// sure (convert.Result.KnownModule); such a name takes part in C2M017.
	Module string
	// Status is Converted, Refused or Failed.
	Status convert.Status
	// Output is the manifest's path (Config.Out joined with MODULE.yaml)
	// when converted, and Write says whether it was written.
	Output string
	Write  WriteOutcome
	// Kept reports that the manifest in Out was kept instead of
	// converting the project again: convert.Current says converting would
	// give its bytes (it is unedited, its sources and fingerprint hold,
	// and its conversion had no warning to report).
	Kept bool
	// File is, for a project converted from one compose file alone
	// (Project.File), that file's name relative to Project; else empty.
	File string
	// Missing counts the declarations the author must still supply, and
	// Decisions the values their skeleton leaves to fill in
	// (convert.Result.Decisions).
	Missing, Decisions int
	// LeftOut names the services profiles left out (each also a
	// warning among Diagnostics); VolumesLeftOut reports that every
	// service that mounts a volume is among them, so the manifest
	// declares none of the project's data (convert.Result).
	LeftOut        []string
	VolumesLeftOut bool
	// Skeleton is, for a refused module, the declarations to fill in.
	Skeleton []byte
	// Diagnostics are the project's findings, then those of the rules run
	// across the batch, then the error that stopped it, if any. Relative
	// file names are joined to Project.
	Diagnostics []rules.Diagnostic
	// LoadFailed is set when the project could not be read or converted
	// (Status Failed before anything was written).
	LoadFailed bool
	// Internal is set when its conversion failed with an internal error
	// (a panic: InternalError); LoadFailed is set too.
	Internal bool

	inSet bool // a module or candidate was built: the set rules see it
	// maybe is, for a project that failed to load and whose module name
	// is not known, the name docker compose gives a project that names
	// none (its folder's): the set rules take it, so that another
	// project converting to it does not replace this one's manifest.
	maybe    string
	declared declSet // its declared paths, for the set rules
	staged   string  // the staged manifest file, until committed
	// asked are the acknowledge: items it leaves to decide (Asked),
	// from which Report.Shared is made.
	asked []SharedItem
	// askedMounts are the sources it leaves to decide that one image
	// mounts at one target (AskedMounts), for Report.SharedMounts.
	askedMounts []SharedMount
}

// declRec is what the set rules need of one declared path; a batch keeps
// these, not whole modules.
type declRec struct {
	kind    manifest.Kind
	path    string
	file    string // as convert gives it, relative to the project
	line    int
	source  string
	service string // the service mounting it, when only one does
	legacy  string // where its data lives today (manifest.Origin.Legacy)
}

// Orphan is a manifest in the output folder that compose2manifest
// generated, whose module this run did not produce (see orphans). It is
// reported, never deleted.
type Orphan struct {
	// File is the manifest's path (Config.Out joined with its name).
	File string
	// Module is the module it declares.
	Module string
	// From is the compose file its header records, "PROJECT/FILE".
	From string
}

// Report is the outcome of a batch.
type Report struct {
	// Entries are the projects in discovery order: depth first, sorted by
	// name, a parent folder before its children. Empty when Interrupted.
	Entries []Entry
	// Orphans are the orphaned manifests of Out, sorted by file name.
	Orphans []Orphan
	// Skipped is what under Root was not converted, and why, in
	// discovery order: compose files no project reads, symbolic links to
	// folders.
	Skipped []Skipped
	// Interrupted is set when the batch's context was done before its
	// manifests were committed: then nothing was written to Out, the
	// staging folder was removed, Entries and Orphans are empty, Found
	// counts the projects discovered and Finished those converted before
	// the batch stopped.
	Interrupted     bool
	Found, Finished int
	// OtherShards counts the projects under Root left to the other parts
	// of Config.Shard; Shard is that part.
	OtherShards int
	Shard       Shard
	// Shared are the acknowledge: items that two or more projects leave
	// to decide (Shared), and SharedMounts the sources each of them
	// leaves to decide that one image mounts at one target
	// (SharedMounts), which DefaultsFile, a defaults file under Root
	// (existing or to write), gives once for every project.
	Shared       []SharedItem
	SharedMounts []SharedMount
	DefaultsFile string
	// Unfinished is set when Out held the journal of a commit that was
	// killed halfway (SIGKILL, a power cut): some of its manifests are
	// new, the others as they were. This run's own commit replaces the
	// journal and removes it once complete.
	Unfinished *UnfinishedCommit
}

// Summary counts a Report's outcomes.
type Summary struct {
	Projects  int `json:"projects"`
	Converted int `json:"converted"`
	Written   int `json:"written"`
	Unchanged int `json:"unchanged"`
	// Kept counts the unchanged manifests kept without converting their
	// projects again (Entry.Kept), among Unchanged.
	Kept    int `json:"kept"`
	Refused int `json:"refused"`
	Missing int `json:"missing_declarations"`
	// Decisions is how many values the refused projects' skeletons leave
	// to fill in, in all.
	Decisions  int `json:"decisions_left"`
	LoadFailed int `json:"failed_to_load"`
	Failed     int `json:"failed"`
	Orphans    int `json:"orphaned"`
	// LeftOut counts the services profiles left out, in every project;
	// VolumesLeftOut the converted projects whose every service with a
	// volume is left out (counted in Converted too).
	LeftOut        int `json:"left_out_by_profiles"`
	VolumesLeftOut int `json:"converted_without_volumes"`
	// SkippedFiles and SkippedLinks count Report.Skipped by kind.
	SkippedFiles int `json:"compose_files_not_converted"`
	SkippedLinks int `json:"links_not_followed"`
	// Internal counts the projects that failed with an internal error
	// (counted in LoadFailed too).
	Internal int `json:"internal_errors,omitempty"`
	// OtherShards counts the projects left to the other parts of a
	// sharded batch (Report.OtherShards), not in Projects.
	OtherShards int `json:"in_other_shards,omitempty"`
	// Interrupted and Finished: see Report.
	Interrupted bool `json:"interrupted,omitempty"`
	Finished    int  `json:"finished,omitempty"`
}

// Summary counts r's outcomes. Failed counts every project with status
// error; LoadFailed those of them that could not be read or converted,
// the others failed to be written.
func (r *Report) Summary() Summary {
	if r.Interrupted {
		return Summary{Projects: r.Found, Interrupted: true, Finished: r.Finished}
	}
	s := Summary{Projects: len(r.Entries), Orphans: len(r.Orphans), OtherShards: r.OtherShards}
	for _, sk := range r.Skipped {
		if sk.Kind == SkippedLink {
			s.SkippedLinks++
		} else {
			s.SkippedFiles++
		}
	}
	for _, e := range r.Entries {
		s.LeftOut += len(e.LeftOut)
		if e.VolumesLeftOut && e.Status == convert.Converted {
			s.VolumesLeftOut++
		}
		switch e.Status {
		case convert.Converted:
			s.Converted++
			if e.Write == Written {
				s.Written++
			} else {
				s.Unchanged++
			}
			if e.Kept {
				s.Kept++
			}
		case convert.Refused:
			s.Refused++
			s.Missing += e.Missing
			s.Decisions += e.Decisions
		case convert.Failed:
			s.Failed++
			if e.LoadFailed {
				s.LoadFailed++
			}
			if e.Internal {
				s.Internal++
			}
		}
	}
	return s
}

// Each converts projects concurrently, at most jobs at a time (jobs < 1
// means runtime.GOMAXPROCS), each with opts and its own folder as project
// and working directory, starting with the biggest (Project.Size). It
// calls fn with each project's index and
// outcome as soon as it is done, from the goroutine that converted it:
// calls for different projects may run at once, never two for the same
// index. A project that cannot be read, or whose conversion panics, is
// reported as Failed with the error (an *InternalError for a panic); it
// never stops the others. Each returns when every started conversion is
// done or abandoned. Once ctx is done it starts no new conversion and
// abandons the running ones, fn is not called for the projects not
// started or abandoned, and Each returns ctx's error.
//
// When opts.Images is nil, the conversions share the built-in image table
// (images.Default), parsed once per process when first needed.
func Each(ctx context.Context, projects []Project, jobs int, opts convert.Options, fn func(i int, res *convert.Result, err error)) error {
	return Runner{}.Each(ctx, projects, jobs, opts, fn)
}

// Each is the package's Each, converting each project as r says: with
// r.Convert, and within r.Timeout, after which the project is reported as
// failed with a *TimeoutError and its conversion abandoned.
func (r Runner) Each(ctx context.Context, projects []Project, jobs int, opts convert.Options, fn func(i int, res *convert.Result, err error)) error {
	if jobs < 1 {
		jobs = runtime.GOMAXPROCS(0)
	}
	var shares *shareIndex
	var hold []held
	if r.Share {
		shares = newShareIndex(projects)
		report := fn
		var mu sync.Mutex
		fn = func(i int, res *convert.Result, err error) {
			if shares.add(i, res) && err == nil {
				mu.Lock()
				hold = append(hold, held{i, res})
				mu.Unlock()
				return
			}
			report(i, res, err)
		}
		defer func() { shares.offer(hold, report) }()
	}
	next := make(chan int)
	var wg sync.WaitGroup
	for range min(jobs, len(projects)) {
		wg.Go(func() {
			for i := range next {
				if ctx.Err() != nil {
					continue // drain: start nothing once ctx is done
				}
				res, err := r.convertOne(ctx, projects[i], opts)
				if errors.Is(err, errAbandoned) {
					continue // interrupted: neither converted nor failed
				}
				fn(i, res, err)
			}
		})
	}
	// Biggest first, so that a large project does not start last and
	// leave the other workers idle (longest-processing-time-first).
	order := make([]int, len(projects))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(a, b int) bool { return projects[order[a]].Size > projects[order[b]].Size })
	var err error
feed:
	for _, i := range order {
		if err = ctx.Err(); err != nil {
			break
		}
		select {
		case next <- i:
		case <-ctx.Done():
			err = ctx.Err()
			break feed
		}
	}
	close(next)
	wg.Wait()
	if err == nil {
		err = ctx.Err() // done while the last ones were queued or running
	}
	return err
}

// errAbandoned is convertOne's error for a conversion left running when
// ctx was done.
var errAbandoned = errors.New("abandoned: the batch was interrupted")

// convertOne converts one project; it never panics. The conversion runs
// in a goroutine of its own, so that a stuck one (compose-go cannot be
// interrupted) is abandoned when r.Timeout passes or ctx is done: the
// project is then reported failed (a *TimeoutError), or errAbandoned, and
// the goroutine is left to finish on its own; what it returns is dropped.
func (r Runner) convertOne(ctx context.Context, p Project, opts convert.Options) (*convert.Result, error) {
	if p.Err != nil {
		return &convert.Result{Status: convert.Failed}, p.Err
	}
	opts.ProjectDirectory = p.Dir
	opts.WorkingDirectory = p.Dir
	if p.File != "" {
		opts.ConfigFiles = []string{p.File}
	}
	conv := r.Convert
	if conv == nil {
		conv = convert.Convert
	}
	pctx, cancel := ctx, context.CancelFunc(func() {})
	if r.Timeout > 0 {
		pctx, cancel = context.WithTimeout(ctx, r.Timeout)
	}
	defer cancel()
	type outcome struct {
		res *convert.Result
		err error
	}
	done := make(chan outcome, 1) // buffered: an abandoned conversion never blocks
	go func() {
		defer func() {
			if v := recover(); v != nil {
				done <- outcome{&convert.Result{Status: convert.Failed}, &InternalError{Project: p.Dir, Value: v}}
			}
		}()
		res, err := conv(pctx, opts)
		if res == nil {
			res = &convert.Result{Status: convert.Failed}
		}
		done <- outcome{res, err}
	}()
	select {
	case o := <-done:
		return o.res, o.err
	case <-pctx.Done():
	}
	select {
	case o := <-done: // finished just then
		return o.res, o.err
	default:
	}
	if ctx.Err() != nil {
		return nil, errAbandoned
	}
	return &convert.Result{Status: convert.Failed}, &TimeoutError{Timeout: r.Timeout}
}

// RootDefaults returns opts with DefaultsFile naming the defaults file
// at the batch's root (declare.DefaultsFile), when opts names none and
// root has one: every project under the root is converted with it. A
// DefaultsFile given relative is made absolute from
// opts.WorkingDirectory, once: each project converts from its own
// folder. Anything at the root by that name (a symbolic link, a folder)
// is named, so that the check of the defaults refuses what is not a
// regular file instead of the batch converting without it.
func RootDefaults(root string, opts convert.Options) convert.Options {
	if opts.DefaultsFile != "" {
		if !filepath.IsAbs(opts.DefaultsFile) && opts.WorkingDirectory != "" {
			opts.DefaultsFile = filepath.Join(opts.WorkingDirectory, opts.DefaultsFile)
		} else if abs, err := filepath.Abs(opts.DefaultsFile); err == nil {
			opts.DefaultsFile = abs
		}
		return opts
	}
	p := filepath.Join(root, declare.DefaultsFile)
	if _, err := os.Lstat(p); err == nil {
		opts.DefaultsFile = p
	}
	return opts
}

// UnreadDefaults returns, for a project converted alone (convert -f,
// ask, plan) with no defaults file named, the nearest defaults file
// (declare.DefaultsFile) in the project's folder or one above it, as a path from
// opts.WorkingDirectory; or "" when there is none, one is named, or the
// compose file is read from standard input. Such a file is what a batch
// over that folder reads and the single project does not: the caller
// says so, so that the project is not converted unlike its batch in
// silence. Only the names are looked up (os.Lstat), nothing is read.
func UnreadDefaults(opts convert.Options) string {
	if opts.DefaultsFile != "" {
		return ""
	}
	wd := opts.WorkingDirectory
	if wd == "" {
		wd, _ = os.Getwd()
	}
	dir := opts.ProjectDirectory
	if dir == "" && len(opts.ConfigFiles) > 0 {
		if opts.ConfigFiles[0] == "-" {
			return ""
		}
		dir = filepath.Dir(opts.ConfigFiles[0])
	}
	if !filepath.IsAbs(dir) {
		dir = filepath.Join(wd, dir)
	}
	for d := filepath.Clean(dir); ; d = filepath.Dir(d) {
		p := filepath.Join(d, declare.DefaultsFile)
		if _, err := os.Lstat(p); err == nil {
			if rel, err := filepath.Rel(wd, p); err == nil {
				return rel
			}
			return p
		}
		if d == filepath.Dir(d) {
			return ""
		}
	}
}

// Run converts every project under cfg.Root and writes the manifests of
// the modules that pass into cfg.Out.
//
// It works in three steps. Projects are discovered and converted
// concurrently; each converted manifest is written to a staging folder
// inside Out, and only the report entry and the module's declared paths
// are kept. Then the rules that span modules (rules.RunSet: a path owned
// by two modules, two projects with the same module name) run over every
// converted module and every refused candidate; an error there refuses
// the module it names. Last, in discovery order, each converted module's
// staged manifest replaces Out/MODULE.yaml, unless that file is unchanged
// or was not generated by compose2manifest (then, without cfg.Force, the
// module fails and the file is left alone). Nothing is written for a
// refused module, and nothing in Out is ever deleted except the staging
// folder. Manifests in Out that no project produced are reported as
// orphans.
//
// When ctx is done before the manifests are committed (the command
// cancels it on SIGINT and SIGTERM), Run starts no new project, waits for
// the running ones, removes its staging folder and writes nothing: it
// returns a Report with Interrupted set and ctx's error. Once committing
// has begun it completes, so Out is never left half updated.
//
// Out and the staging folder are created when the first manifest is
// staged: a batch with nothing to write (no project, or none converted)
// does not create Out, and a batch that created Out but wrote nothing
// into it (every converted module refused by the rules that span
// modules, or an interruption) removes it again, with the parents it
// created.
//
// Staging folders left in Out by a run that was killed (SIGKILL, a power
// cut) are removed when stale (see removeStale), and the journal of a
// commit it left halfway is reported (Report.Unfinished).
//
// A batch holds Out's lock file from before its first conversion to after
// its commit; Run returns a *LockedError, converting nothing, when
// another live batch holds it.
//
// Any other error return means the batch could not run at all (Root or
// Out unusable); a failing project is reported in its Entry.
func Run(ctx context.Context, cfg Config) (*Report, error) {
	rootAbs, err := absIn(cfg.WorkingDirectory, cfg.Root)
	if err != nil {
		return nil, err
	}
	outAbs, err := absIn(cfg.WorkingDirectory, cfg.Out)
	if err != nil {
		return nil, err
	}
	if err := cfg.Check(); err != nil {
		return nil, err
	}
	if cfg.Jobs != 1 {
		// The workers' first loads would wait on one another for
		// compose-go's schema (the one wait a mutex profile of the
		// corpus batch at --jobs 2 shows); it is compiled now instead,
		// beside the discovery.
		go project.Warm()
	}
	found, err := discover(rootAbs, cfg.Excludes, map[string]bool{outAbs: true})
	if err != nil {
		return nil, err
	}
	projects, others := cfg.Shard.split(rootAbs, found.projects)
	if fi, err := os.Stat(outAbs); err == nil && !fi.IsDir() {
		return nil, fmt.Errorf("%s is not a folder", cfg.Out)
	}
	out := newOutput(outAbs)
	defer out.cleanup()
	// One batch at a time into Out: never two commits interleaved.
	if err := out.lock(cfg.Out); err != nil {
		return nil, err
	}
	removeStale(outAbs, time.Now())
	unfinished := readJournal(cfg.Out, outAbs)
	opts := RootDefaults(rootAbs, cfg.Convert)
	opts.ManifestDir = outAbs // each header names its compose file from there
	check := opts
	check.WorkingDirectory = cfg.WorkingDirectory
	if err := convert.CheckDefaults(check); err != nil {
		return nil, err // once for the batch, not once per project
	}
	if cfg.TuneGC {
		TuneGC(len(projects))
	}
	sp := newSpool()
	defer sp.close()

	// A project whose manifest in Out is current is kept, not converted.
	conv := cfg.ConvertFunc
	if conv == nil {
		conv = convert.Convert
	}
	var kept sync.Map // of *convert.Result
	keepOrConvert := func(ctx context.Context, opts convert.Options) (*convert.Result, error) {
		if res := keep(outAbs, opts); res != nil {
			kept.Store(res, true)
			return res, nil
		}
		return conv(ctx, opts)
	}

	var entries []Entry
	var mu sync.Mutex
	done := 0
	used := map[string]bool{} // the compose files some project read
	// convertAll converts ps, whose entries go to entries[base:].
	convertAll := func(ps []Project, total int) error {
		base := len(entries)
		entries = append(entries, make([]Entry, len(ps))...)
		return Runner{Convert: keepOrConvert, Timeout: cfg.ProjectTimeout, Share: true}.Each(ctx, ps, cfg.Jobs, opts, func(i int, res *convert.Result, err error) {
			stage := func() (string, error) {
				staging, err := out.staging()
				return filepath.Join(staging, strconv.Itoa(base+i)+".yaml"), err
			}
			_, isKept := kept.LoadAndDelete(res)
			if isKept {
				stage = nil // its bytes are in Out already
			}
			e := entry(cfg.Root, ps[i], res, err, sp, stage, cfg.create)
			if isKept && e.Status == convert.Converted {
				e.Kept, e.Write = true, Unchanged
				e.Output = path.Join(filepath.ToSlash(cfg.Out), e.Module+".yaml")
			}
			mu.Lock()
			defer mu.Unlock()
			entries[base+i] = e
			for _, f := range res.Files {
				used[f] = true
			}
			done++
			if cfg.Progress != nil {
				cfg.Progress(done, total)
			}
		})
	}
	err = convertAll(projects, len(projects))
	// Interrupted: the deferred RemoveAll drops what was staged.
	interrupted := func() *Report {
		return &Report{Interrupted: true, Found: len(projects), Finished: done, Unfinished: unfinished}
	}
	if err != nil && ctx.Err() == nil {
		return nil, err
	}
	if err := ctx.Err(); err != nil {
		return interrupted(), err
	}
	// Then the compose files no project read: converted alone when
	// IncludeFiles names them, else reported.
	if err := readElsewhere(ctx, Runner{Convert: conv, Timeout: cfg.ProjectTimeout}, cfg.Jobs, opts, rootAbs, found, used, others, cfg.Shard); err != nil {
		return interrupted(), err
	}
	included, skipped := unused(cfg.Root, rootAbs, found, used, cfg.IncludeFiles, cfg.Shard)
	if len(included) > 0 {
		err = convertAll(included, len(projects)+len(included))
		projects = append(projects, included...)
		if err != nil && ctx.Err() == nil {
			return nil, err
		}
		if err := ctx.Err(); err != nil {
			return interrupted(), err
		}
		projects, entries = inDiscoveryOrder(found.order, projects, entries)
	}
	rep := &Report{Entries: entries, Skipped: skipped, Unfinished: unfinished, Shard: cfg.Shard, OtherShards: len(others)}
	asks := make([][]SharedItem, 0, len(entries))
	mounts := make([][]SharedMount, 0, len(entries))
	for _, e := range entries {
		asks = append(asks, e.asked)
		mounts = append(mounts, e.askedMounts)
	}
	rep.Shared, rep.SharedMounts = Shared(asks), SharedMounts(mounts)
	if len(rep.Shared) > 0 || len(rep.SharedMounts) > 0 {
		rep.DefaultsFile = cfg.Convert.DefaultsFile
		if rep.DefaultsFile == "" {
			rep.DefaultsFile = filepath.Join(cfg.Root, declare.DefaultsFile)
		}
	}
	crossCheck(rep.Entries, sp, CheckoutShown(cfg.Root, rootAbs))
	sp.close()
	if err := ctx.Err(); err != nil {
		return interrupted(), err
	}
	commit(cfg.create, rep.Entries, cfg.Out, outAbs, cfg.Force)
	out.cleanup() // before looking for orphans: no staging folder left
	names, unknown := elsewhere(others, opts)
	rep.Orphans = orphans(rep.Entries, projects, cfg.Out, outAbs, cfg.Shard, names, unknown)
	return rep, nil
}

// keep returns, for the project opts name (ProjectDirectory, its default
// compose files), a converted Result of the manifest in outAbs that is
// current (convert.Current): found by the module name convert.QuickModule
// gives without loading compose, generated by compose2manifest, of that
// module, and what converting would write byte for byte. nil when any of
// that fails: the project is converted. The manifest's positions name it
// from the project's folder, as a conversion's name its files, so that
// the report shows it under the output folder as given (out/web.yaml:12).
func keep(outAbs string, opts convert.Options) *convert.Result {
	dir := opts.ProjectDirectory
	if len(opts.ConfigFiles) > 0 {
		return nil
	}
	name, ok := convert.QuickModule(dir, opts)
	if !ok || !manifest.ValidModule(name) {
		return nil
	}
	file := filepath.Join(outAbs, name+".yaml")
	if _, module, ok := readHead(file); !ok || module != name {
		return nil
	}
	data, err := fsread.File("manifest", file, manifest.MaxSize)
	if err != nil {
		return nil
	}
	shown := file
	if rel, err := filepath.Rel(dir, file); err == nil {
		shown = filepath.ToSlash(rel)
	}
	m, err := manifest.Decode(shown, data)
	if err != nil || m.Module != name || !convert.Current(dir, data, m, opts) {
		return nil
	}
	res := &convert.Result{Status: convert.Converted, Module: m, Manifest: data, ProjectDirectory: dir, ProjectName: name}
	for _, s := range m.Sources {
		res.Files = append(res.Files, filepath.Join(dir, filepath.FromSlash(s.File)))
	}
	return res
}

// absIn returns p made absolute against dir (or the process's working
// directory), cleaned.
func absIn(dir, p string) (string, error) {
	if filepath.IsAbs(p) {
		return filepath.Clean(p), nil
	}
	if dir == "" {
		return filepath.Abs(p)
	}
	return filepath.Join(dir, p), nil
}

// entry makes a project's report entry from its conversion, writing a
// converted manifest to the file staged returns (none when staged is nil:
// a manifest kept in Out) and its declared paths to sp. It keeps nothing of res but the report's fields.
func entry(root string, p Project, res *convert.Result, err error, sp *spool, staged func() (string, error), create createFunc) Entry {
	e := Entry{Project: displayPath(root, p.Rel), Status: res.Status, Missing: len(res.Missing), Decisions: res.Decisions, Skeleton: res.Skeleton,
		LeftOut: res.LeftOut, VolumesLeftOut: res.VolumesLeftOut, asked: Asked(res), askedMounts: AskedMounts(res)}
	if p.File != "" {
		e.File = filepath.ToSlash(filepath.Base(p.File))
	}
	m := res.Module
	if m == nil {
		m = res.Candidate
	}
	switch {
	case m != nil:
		e.Module = m.Module
	default:
		e.Module = res.ProjectName
	}
	if n := len(res.Diagnostics); n > 0 || err != nil {
		e.Diagnostics = make([]rules.Diagnostic, 0, n+1)
	}
	for _, d := range res.Diagnostics {
		d.File = e.file(d.File)
		e.Diagnostics = append(e.Diagnostics, d)
	}
	if err != nil {
		e.Status = convert.Failed
		e.LoadFailed = true
		var ie *InternalError
		e.Internal = errors.As(err, &ie)
		if m == nil {
			// Its name, when known, still takes part in C2M017 and
			// keeps its manifest from being reported as orphaned.
			// When it is not (the file that would say it does not
			// parse), the name docker compose gives a project without
			// one does, the folder's: another project converting to it
			// would otherwise replace this one's manifest.
			e.Module = res.KnownModule
			if e.Module == "" && p.File == "" {
				e.maybe = project.NormalizeName(filepath.Base(p.Dir))
			}
			e.inSet = manifest.ValidModule(e.setName())
		}
		e.Diagnostics = append(e.Diagnostics, rules.Diagnostic{Severity: rules.Error, File: e.Project, Module: e.Module, Message: err.Error()})
		return e
	}
	if m != nil {
		e.inSet = true
		e.declared = sp.store(inCheckout(declaredOf(m), p.Dir))
	}
	if e.Status == convert.Converted && staged != nil {
		file, werr := staged()
		if werr == nil {
			werr = writeFile(create, file, res.Manifest)
		}
		if werr != nil {
			e.fail(werr)
			return e
		}
		e.staged = file
	}
	return e
}

// file returns a file name of the project as the report shows it.
func (e *Entry) file(name string) string {
	if name == "" || path.IsAbs(name) || filepath.IsAbs(name) {
		return name
	}
	return path.Join(e.Project, filepath.ToSlash(name))
}

// key names the entry's project in the cross-project findings: its
// folder, or, for a project made of one file (--include-file), that file.
func (e *Entry) key() string {
	if e.File != "" {
		return path.Join(e.Project, e.File)
	}
	return e.Project
}

// fail marks a converted module as failed to be written.
func (e *Entry) fail(err error) {
	e.Status = convert.Failed
	e.Output, e.Write = "", ""
	e.Diagnostics = append(e.Diagnostics, rules.Diagnostic{Severity: rules.Error, File: e.Project, Module: e.Module, Message: err.Error()})
}

// declaredOf returns what the set rules need of m's declared paths.
func declaredOf(m *manifest.Module) []declRec {
	rs := m.Declared()
	out := make([]declRec, 0, len(rs))
	for _, r := range rs {
		// A kept manifest, read from disk, records its origins in
		// comments (Legacy).
		d := declRec{kind: r.Kind, path: r.Path, file: r.Pos.File, line: r.Pos.Line, legacy: r.Legacy()}
		if r.Origin != nil {
			d.source = r.Origin.Source
			if len(r.Origin.Services) == 1 {
				d.service = r.Origin.Services[0]
			}
		}
		out = append(out, d)
	}
	return out
}

// inCheckout returns recs with each relative bind's origin made absolute
// against dir, the project's folder in the batch's checkout
// (rules.CheckoutOrigin).
func inCheckout(recs []declRec, dir string) []declRec {
	for i, d := range recs {
		recs[i].legacy = rules.CheckoutOrigin(d.legacy, dir)
	}
	return recs
}

// crossCheck runs the rules that span modules (rules.RunSet) over every
// converted module, refused candidate and failed project whose module
// name is known (for C2M017: it has no paths), adds each finding to the entry
// it names, and refuses a converted module that gets an error. To keep
// memory small, only the entries whose hashes meet another's (shared) are
// read back from sp, and the modules it checks hold only the declared
// paths where modules meet (meeting), with positions as the report shows
// them: the rules find in them what they find in every declared path.
// check runs the same over manifests (RunSet).
//
// shown rewrites a finding's message for people: the checkout's absolute
// paths (rules.CheckoutOrigin) as the root was given.
func crossCheck(entries []Entry, sp *spool, shown func(string) string) {
	var owners []int
	ds := runSet(rules.All(), len(entries), func(i int) declSet { return entries[i].declared },
		func(i int) ([]declRec, error) {
			rs, err := sp.load(entries[i].declared)
			if err != nil {
				entries[i].staged = ""
				entries[i].fail(err)
			}
			return rs, err
		},
		func(i int) *manifest.Module {
			entries[i].declared = declSet{} // read: let it go
			return entryHead(entries, i, &owners)
		},
		func(i int, name string) string { return entries[i].file(name) })
	for i := range ds {
		ds[i].Message = shown(ds[i].Message)
	}
	assign(entries, owners, ds)
}

// CheckoutShown returns what rewrites, in a message, the paths under
// rootAbs (the batch root, absolute) as under root, the root as given:
// /home/u/fleet/common as fleet/common, or ./common for root ".".
func CheckoutShown(root, rootAbs string) func(string) string {
	abs := strings.TrimSuffix(filepath.ToSlash(rootAbs), "/") + "/"
	prefix := abs
	if !filepath.IsAbs(root) {
		prefix = filepath.ToSlash(filepath.Clean(root)) + "/"
	}
	return func(msg string) string { return strings.ReplaceAll(msg, abs, prefix) }
}

// entryHead returns the module the set rules know entry i by, without
// its paths, or nil when it takes no part; it adds i to owners when it
// does.
func entryHead(entries []Entry, i int, owners *[]int) *manifest.Module {
	e := &entries[i]
	if !e.inSet {
		return nil
	}
	*owners = append(*owners, i)
	return &manifest.Module{Module: e.setName(), Pos: manifest.Pos{File: e.key()}}
}

// assign adds each finding of ds to the entries it belongs to (owner,
// among owners), and refuses a converted module that gets an error.
func assign(entries []Entry, owners []int, ds []rules.Diagnostic) {
	for _, d := range ds {
		for _, i := range owner(entries, owners, d) {
			e := &entries[i]
			if e.LoadFailed && len(e.Diagnostics) > 0 {
				// Before the error that stopped it, which stays last.
				last := len(e.Diagnostics) - 1
				e.Diagnostics = append(e.Diagnostics[:last], d, e.Diagnostics[last])
			} else {
				e.Diagnostics = append(e.Diagnostics, d)
			}
			if d.Severity == rules.Error && e.Status == convert.Converted {
				e.Status = convert.Refused
				e.staged = ""
			}
		}
	}
}

// RunSet returns what rules.RunSet(list, mods) returns, found as a batch
// finds it (crossCheck): the modules whose declared paths or origins may
// meet another's are told by hashes first, and the rules run over every
// module (for C2M017) holding only the declared paths where modules meet.
// check runs it over the manifests it is given, so that a plain check of
// a batch's manifests, however they were made (one by one, in shards),
// finds what the batch finds.
func RunSet(list []*rules.Rule, mods []*manifest.Module) []rules.Diagnostic {
	sp := newSpool() // its seed; nothing is spooled
	sets := make([]declSet, len(mods))
	for i, m := range mods {
		sets[i].keys, sets[i].above = sp.hashes(declaredOf(m))
	}
	return runSet(list, len(mods), func(i int) declSet { return sets[i] },
		func(i int) ([]declRec, error) { return declaredOf(mods[i]), nil },
		func(i int) *manifest.Module { return &manifest.Module{Module: mods[i].Module, Pos: mods[i].Pos} },
		func(_ int, name string) string { return name })
}

// runSet is the one check across modules, of a batch (crossCheck) and of
// check (RunSet), over n modules: set(i) is module i's prefilter hashes;
// the records of those that may meet another (shared) are loaded (load;
// one that fails takes part without them), and the rules of list run over
// a module for each i that head gives one for (nil: not in the set), made
// of the records where modules meet (meeting), their files as file gives
// them.
func runSet(list []*rules.Rule, n int, set func(i int) declSet, load func(i int) ([]declRec, error),
	head func(i int) *manifest.Module, file func(i int, name string) string) []rules.Diagnostic {
	cand := shared(n, set)
	recs := make(map[int][]declRec)
	for i := range n {
		if !cand[i] {
			continue
		}
		if rs, err := load(i); err == nil {
			recs[i] = rs
		}
	}
	return runKept(list, n, recs, meeting(recs), head, file)
}

// runKept runs the rules of list over a module for each of n that head
// gives one for, holding its records of recs (by module) at the paths keep
// names, their files as file gives them; it clears recs and keep.
func runKept(list []*rules.Rule, n int, recs map[int][]declRec, keep map[string]bool,
	head func(i int) *manifest.Module, file func(i int, name string) string) []rules.Diagnostic {
	var mods []*manifest.Module
	for i := range n {
		m := head(i)
		if m == nil {
			continue
		}
		for _, d := range recs[i] {
			if !keep[d.path] {
				continue
			}
			r := manifest.Resource{Kind: d.kind, Path: d.path, Pos: manifest.Pos{File: file(i, d.file), Line: d.line}}
			if d.source != "" || d.service != "" || d.legacy != "" {
				r.Origin = &manifest.Origin{Source: d.source, Legacy: d.legacy}
				if d.service != "" {
					r.Origin.Services = []string{d.service}
				}
			}
			m.Resources = append(m.Resources, r)
		}
		mods = append(mods, m)
	}
	clear(keep)
	clear(recs)
	return rules.RunSet(list, mods)
}

// meeting returns the paths, among recs (by entry), at which the set
// rules may find something: a path two entries declare; a path one entry
// owns (declRec.owns) above a path another owns, and that path (a nesting);
// the paths of the records of an origin two entries share
// (rules.SharableOrigin, compared as rules.OriginKey), or of a bind's
// host path that another entry's origin holds, and of that origin's. Every
// record at those paths kept, and no other, the rules find what they find
// in all of recs: elsewhere a path is one entry's alone, an ancestor is
// owned by no other entry, an origin is one entry's and holds no other's.
func meeting(recs map[int][]declRec) map[string]bool {
	type seen struct{ first, n int }
	paths, origins, owned := map[string]seen{}, map[string]seen{}, map[string]seen{}
	count := func(m map[string]seen, key string, i int) {
		if u, ok := m[key]; !ok {
			m[key] = seen{i, 1}
		} else if u.first != i && u.n == 1 {
			m[key] = seen{u.first, 2}
		}
	}
	at := map[string][]string{} // an origin's paths, for the origins held by another's
	for i, rs := range recs {
		for _, d := range rs {
			count(paths, d.path, i)
			if d.owns() {
				count(owned, d.path, i)
				if d.sharable() {
					o := rules.OriginKey(d.legacy)
					count(origins, o, i)
					if strings.HasPrefix(o, "bind ") {
						at[o] = append(at[o], d.path)
					}
				}
			}
		}
	}
	keep := map[string]bool{}
	for p, u := range paths {
		if u.n > 1 {
			keep[p] = true
		}
	}
	// A directory used where it is (kind host, or owned in place) by one
	// entry, above another's copy of a directory below it: both kept
	// (checkMovedFromUnder).
	inPlace := map[string]seen{}
	for i, rs := range recs {
		for _, d := range rs {
			if d.inPlace() {
				count(inPlace, path.Clean(d.path), i)
			}
		}
	}
	// held keeps p, of entry i, and the paths of the copies of host
	// directory a, when another entry has a's origin.
	held := func(a string, i int, p string) {
		if u, ok := origins["bind "+a]; ok && (u.n > 1 || u.first != i) {
			keep[p] = true
			for _, q := range at["bind "+a] {
				keep[q] = true
			}
		}
	}
	for i, rs := range recs {
		for _, d := range rs {
			if !d.owns() {
				// A host path another entry's origin is, or holds: the
				// host record and that entry's copy (checkSharedOrigin).
				if strings.HasPrefix(d.path, "/") {
					for a := path.Clean(d.path); a != ""; a = rules.ParentOf(a) {
						held(a, i, d.path)
					}
				}
				continue
			}
			if d.sharable() {
				o := rules.OriginKey(d.legacy)
				if origins[o].n > 1 {
					keep[d.path] = true
				}
				if dir, ok := strings.CutPrefix(o, "bind "); ok {
					for a := rules.ParentOf(dir); a != ""; a = rules.ParentOf(a) {
						held(a, i, d.path)
						if u, ok := inPlace[a]; ok && (u.n > 1 || u.first != i) {
							keep[a], keep[d.path] = true, true
						}
					}
				}
			}
			for a := rules.ParentOf(d.path); a != ""; a = rules.ParentOf(a) {
				if u, ok := owned[a]; ok && (u.n > 1 || u.first != i) {
					keep[a], keep[d.path] = true, true
				}
			}
		}
	}
	return keep
}

// setName returns the module name the set rules know e by: its module,
// else the name it may have (maybe).
func (e *Entry) setName() string {
	if e.Module != "" {
		return e.Module
	}
	return e.maybe
}

// owner returns the entries a set diagnostic belongs to: the project
// whose folder holds its file (the deepest one), or else every entry of
// its module.
func owner(entries []Entry, candidates []int, d rules.Diagnostic) []int {
	// A project made of one file (--include-file) owns what names that
	// file; it shares its folder with the folder's own project.
	for _, i := range candidates {
		if entries[i].File != "" && d.File == entries[i].key() {
			return []int{i}
		}
	}
	best := -1
	for _, i := range candidates {
		if entries[i].File != "" {
			continue
		}
		p := entries[i].Project
		if within(d.File, p) && (best < 0 || len(p) > len(entries[best].Project)) {
			best = i
		}
	}
	if best >= 0 && entries[best].setName() == d.Module {
		return []int{best}
	}
	var out []int
	for _, i := range candidates {
		if entries[i].setName() == d.Module {
			out = append(out, i)
		}
	}
	return out
}

// Check returns an error for a configuration Run refuses: a malformed
// exclude or include-file pattern, or a negative ProjectTimeout.
func (c Config) Check() error {
	if c.ProjectTimeout < 0 {
		return fmt.Errorf("--project-timeout %s: want 0 (no limit) or more", c.ProjectTimeout)
	}
	if err := CheckExcludes(c.Excludes); err != nil {
		return err
	}
	return CheckIncludeFiles(c.IncludeFiles)
}
