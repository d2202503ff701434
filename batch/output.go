package batch

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/compose2manifest/compose2manifest/convert"
	"github.com/compose2manifest/compose2manifest/internal/atomicfile"
	"github.com/compose2manifest/compose2manifest/manifest"
)

// GeneratedMarker starts every manifest compose2manifest writes; a file
// without it was written by someone else and is never replaced without
// Config.Force, nor ever deleted.
const GeneratedMarker = atomicfile.GeneratedMarker

// stagingPrefix names the staging folder Run makes inside the output
// folder and removes when done: stagingPrefix, the process ID, "-" and a
// random suffix (".compose2manifest-batch-4242-1234567").
const stagingPrefix = ".compose2manifest-batch-"

// stagingName is the os.MkdirTemp pattern of this process's staging
// folder.
func stagingName() string { return stagingPrefix + strconv.Itoa(os.Getpid()) + "-" }

// Ages after which a staging folder left in the output folder is stale
// (see removeStale).
const (
	staleDeadAge = 10 * time.Minute
	staleAnyAge  = 24 * time.Hour
)

// removeStale removes the staging folders (stagingPrefix*) in outAbs that
// a killed run left behind. A run removes its own staging folder when it
// ends, interrupted or not, so one is left only by a process that was
// killed outright. Another run may be writing into the same folder at
// the moment, so a staging folder is removed only when it has not changed
// for staleDeadAge and the process its name carries is not running on
// this machine, or when it has not changed for staleAnyAge (a folder named
// otherwise, or a process that cannot be checked, such as one in another
// PID namespace sharing the folder). A running batch adds a file to its
// staging folder with each project it converts, so its folder's
// modification time stays recent. Errors are ignored: a folder that
// cannot be removed now is tried again by the next run.
func removeStale(outAbs string, now time.Time) {
	des, err := os.ReadDir(outAbs)
	if err != nil {
		return
	}
	for _, de := range des {
		name := de.Name()
		rest, ok := strings.CutPrefix(name, stagingPrefix)
		if !ok || !de.IsDir() {
			continue
		}
		fi, err := de.Info()
		if err != nil {
			continue
		}
		idle := now.Sub(fi.ModTime())
		// Older versions named it stagingPrefix and a random number:
		// no PID there.
		pidText, _, hasPID := strings.Cut(rest, "-")
		pid, err := strconv.Atoi(pidText)
		dead := hasPID && err == nil && pid > 0 && pid != os.Getpid() && !processRunning(pid)
		dir := filepath.Join(outAbs, name)
		if ((dead && idle >= staleDeadAge) || idle >= staleAnyAge) && onlyStaged(dir) {
			os.RemoveAll(dir)
		}
	}
}

// onlyStaged reports whether dir holds nothing but what a batch stages:
// regular files named N.yaml that hold a generated manifest, or the
// start of one (a run killed while writing). A folder with anything else
// in it is a person's, whatever its name, and is never removed.
func onlyStaged(dir string) bool {
	des, err := os.ReadDir(dir)
	if err != nil {
		return false
	}
	for _, de := range des {
		num, ok := strings.CutSuffix(de.Name(), ".yaml")
		if !ok || !de.Type().IsRegular() {
			return false
		}
		if _, err := strconv.Atoi(num); err != nil {
			return false
		}
		data, err := readPrefix(filepath.Join(dir, de.Name()), len(GeneratedMarker))
		if err != nil || !strings.HasPrefix(GeneratedMarker, string(data)) {
			return false
		}
	}
	return true
}

// readPrefix returns at most n bytes from the start of the file at p.
func readPrefix(p string, n int) ([]byte, error) {
	if fi, err := os.Stat(p); err != nil || !fi.Mode().IsRegular() {
		return nil, fmt.Errorf("%s: not a regular file", p)
	}
	f, err := os.Open(p)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	buf := make([]byte, n)
	m, err := io.ReadFull(f, buf)
	if err == io.ErrUnexpectedEOF || err == io.EOF {
		err = nil
	}
	return buf[:m], err
}

// output creates the output folder and the staging folder inside it when
// the first manifest is staged, and removes them when done.
type output struct {
	abs     string
	created string // the topmost folder that did not exist; "" when abs did
	mu      sync.Mutex
	dir     string // the staging folder, once made
	err     error
	tried   bool
	locked  string // the lock file, while held
}

func newOutput(abs string) *output {
	o := &output{abs: abs}
	for p := abs; ; p = filepath.Dir(p) {
		if _, err := os.Lstat(p); err == nil {
			break
		}
		o.created = p
		if filepath.Dir(p) == p {
			break
		}
	}
	return o
}

// staging returns the staging folder, creating it and the output folder
// on the first call.
func (o *output) staging() (string, error) {
	o.mu.Lock()
	defer o.mu.Unlock()
	if !o.tried {
		o.tried = true
		if o.err = os.MkdirAll(o.abs, 0o755); o.err == nil {
			o.dir, o.err = os.MkdirTemp(o.abs, stagingName())
		}
	}
	return o.dir, o.err
}

// cleanup removes the staging folder, and the output folder and the
// parents it had to create when they are empty. It may be called more
// than once.
func (o *output) cleanup() {
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.dir != "" {
		os.RemoveAll(o.dir)
		o.dir = ""
	}
	if o.locked != "" {
		os.Remove(o.locked)
		o.locked = ""
	}
	if o.created == "" {
		return
	}
	for p := o.abs; ; p = filepath.Dir(p) {
		if os.Remove(p) != nil || p == o.created {
			return // not empty (or not ours): keep it and its parents
		}
	}
}

// newFile is a file writeFile has created.
type newFile interface {
	io.Writer
	Chmod(mode os.FileMode) error
	Close() error
}

// createFunc creates the new file name for writing, mode 0644, and fails
// when it exists. Nil is os.OpenFile with O_EXCL; a test passes a file
// system that fails as a full disk does.
type createFunc func(name string) (newFile, error)

func (create createFunc) open(name string) (newFile, error) {
	if create != nil {
		return create(name)
	}
	return os.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
}

// writeFile writes data to a new file at p, mode 0644. When a write
// fails (a full disk: ENOSPC), the file it created is removed: nothing
// is left behind, not an empty file.
func writeFile(create createFunc, p string, data []byte) (err error) {
	f, err := create.open(p)
	if err != nil {
		return err
	}
	defer func() {
		if err != nil {
			os.Remove(p)
		}
	}()
	if _, err := f.Write(data); err != nil {
		f.Close()
		return err
	}
	if err := f.Chmod(0o644); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// commit moves each converted module's staged manifest to
// outAbs/MODULE.yaml, in entry order. A file that already holds the same
// bytes is left alone; a file compose2manifest did not generate is not
// replaced unless force, and the module then fails. The manifests about
// to be written are listed first in a journal (journalName), removed
// once all are: a journal left behind tells the next run that this
// commit was killed halfway (readJournal). A journal that cannot be
// written fails every module of the commit, which then writes nothing.
func commit(create createFunc, entries []Entry, out, outAbs string, force bool) {
	var names []string
	for _, e := range entries {
		if e.Status == convert.Converted && e.staged != "" {
			names = append(names, e.Module+".yaml")
		}
	}
	if len(names) == 0 {
		return // an earlier journal stays: it still describes the folder
	}
	if err := writeJournal(create, outAbs, names); err != nil {
		for i := range entries {
			if e := &entries[i]; e.Status == convert.Converted && e.staged != "" {
				e.staged = ""
				e.fail(err)
			}
		}
		return
	}
	defer os.Remove(filepath.Join(outAbs, journalName))
	for i := range entries {
		e := &entries[i]
		if e.Status != convert.Converted || e.staged == "" {
			continue
		}
		name := e.Module + ".yaml"
		outcome, err := replace(e.staged, filepath.Join(outAbs, name), path.Join(filepath.ToSlash(out), name), force)
		e.staged = ""
		if err != nil {
			e.fail(err)
			continue
		}
		e.Output = path.Join(filepath.ToSlash(out), name)
		e.Write = outcome
	}
}

// replace writes the manifest staged to dst (an atomic replacement),
// unless dst holds the same bytes or, without force, is a file
// compose2manifest did not generate, a manifest another project generated
// or one edited since it was generated (convert.Guard, naming dst as
// shown), as single mode refuses them.
func replace(staged, dst, shown string, force bool) (WriteOutcome, error) {
	data, err := os.ReadFile(staged)
	if err != nil {
		return "", err
	}
	if !force {
		if err := convert.Guard(dst, shown, data); err != nil {
			return "", err
		}
	}
	outcome, err := atomicfile.WriteManifest(dst, data, force)
	if outcome == atomicfile.Written {
		os.Remove(staged) // as a rename would have; the staging folder goes anyway
	}
	return WriteOutcome(outcome), err
}

// orphans returns the manifests in outAbs that compose2manifest generated
// for a module this run did not produce: no entry has it (converted,
// refused, or failed with a known name). A manifest whose header names
// a compose file in a folder with the base name of a project that failed
// to load, and whose module name is therefore unknown, is not reported:
// that project may well produce it once it loads.
//
// For a sharded batch, the modules of the other shards' projects
// (elsewhere) count as produced, the folder base names of those that
// could not be named without loading (unknown, added to) as failed, and
// only an orphan whose file name (MODULE.yaml) is in shard is reported.
func orphans(entries []Entry, projects []Project, out, outAbs string, shard Shard, elsewhere, unknown map[string]bool) []Orphan {
	produced := map[string]bool{}
	maps.Copy(produced, elsewhere)
	if unknown == nil { // base names of failed projects of unknown module
		unknown = map[string]bool{}
	}
	for i, e := range entries {
		switch {
		case e.Module != "":
			produced[e.Module] = true
		case e.LoadFailed:
			unknown[filepath.Base(projects[i].Dir)] = true
		}
	}
	dirents, err := os.ReadDir(outAbs)
	if err != nil {
		return nil
	}
	var found []Orphan
	for _, de := range dirents {
		name := de.Name()
		if !de.Type().IsRegular() || strings.HasPrefix(name, ".") || !strings.HasSuffix(name, ".yaml") {
			continue
		}
		module := strings.TrimSuffix(name, ".yaml")
		if produced[module] || !shard.Has(name) {
			continue
		}
		header, declared, ok := readHead(filepath.Join(outAbs, name))
		if !ok || produced[declared] {
			continue
		}
		from := convert.HeaderFrom(header)
		if dir := headerFolder(outAbs, from); dir != "" && unknown[dir] {
			continue
		}
		if declared == "" {
			declared = module
		}
		found = append(found, Orphan{File: path.Join(filepath.ToSlash(out), name), Module: declared, From: from})
	}
	sort.Slice(found, func(i, j int) bool { return found[i].File < found[j].File })
	return found
}

// readHead reads a manifest's first line and its module: value. ok is
// false when the file was not generated by compose2manifest.
func readHead(p string) (header, module string, ok bool) {
	if fi, err := os.Stat(p); err != nil || !fi.Mode().IsRegular() {
		return "", "", false // a FIFO would block, a device read on
	}
	f, err := os.Open(p)
	if err != nil {
		return "", "", false
	}
	defer f.Close()
	sc := bufio.NewScanner(io.LimitReader(f, 1<<16))
	for n := 0; sc.Scan() && n < 20; n++ {
		line := sc.Text()
		if n == 0 {
			if !atomicfile.Generated([]byte(line)) {
				return "", "", false
			}
			header = line
			continue
		}
		if v, found := strings.CutPrefix(line, "module:"); found {
			module = strings.Trim(strings.TrimSpace(v), `"'`)
			break
		}
	}
	return header, module, true
}

// headerFolder returns the base name of the project folder a header's
// source names: "mail" of "../mail/compose.yaml" (from outAbs, the
// manifest's folder) and of "mail/compose.yaml" (an earlier version's
// FOLDER/FILE); "" when it names none ("compose.yaml", a manifest
// printed).
func headerFolder(outAbs, from string) string {
	if manifest.Located(from) {
		return filepath.Base(filepath.Dir(filepath.Join(outAbs, filepath.FromSlash(from))))
	}
	dir, _, _ := strings.Cut(from, "/")
	if dir == from {
		return ""
	}
	return dir
}

// Names of the files a batch keeps in the output folder while it runs.
// Both start with "." and so are never taken for manifests.
const (
	// lockName is the lock a batch holds on the output folder from the
	// start of its conversions to the end of its commit: "PID HOST\n".
	lockName = ".compose2manifest.lock"
	// journalName lists the manifests a commit is writing; it is written
	// before the first one and removed after the last, so one left behind
	// is a commit that was killed halfway.
	journalName = ".compose2manifest-commit.json"
)

// LockedError is Run's error when another batch holds the output folder.
type LockedError struct {
	// Out is the output folder as Config.Out gives it.
	Out string
	// PID and Host are the holder's, Since when it took the lock.
	PID   int
	Host  string
	Since time.Time
}

func (e *LockedError) Error() string {
	lock := path.Join(filepath.ToSlash(e.Out), lockName)
	if e.PID <= 0 {
		// Not "PID HOST": another tool's file, or a lock being written.
		return fmt.Sprintf("%s holds a lock file that names no batch (%s, since %s): nothing converted; run again, or remove it if no batch runs",
			e.Out, lock, e.Since.Format(time.RFC3339))
	}
	return fmt.Sprintf("%s is in use by another batch (pid %d on %s, since %s): nothing converted; run again once it is done, or remove %s if no such batch runs",
		e.Out, e.PID, e.Host, e.Since.Format(time.RFC3339), lock)
}

// lock takes the output folder's lock (lockName, created with O_EXCL),
// creating the folder (see cleanup) first. A lock whose process no longer
// runs on this host, or that is older than staleAnyAge, is stale and
// taken over. It returns a *LockedError when another batch holds it, and
// nil without a lock when the folder cannot be created or written: then
// nothing can be written into it either, and each module says so.
func (o *output) lock(out string) error {
	if err := os.MkdirAll(o.abs, 0o755); err != nil {
		return nil
	}
	host, _ := os.Hostname()
	p := filepath.Join(o.abs, lockName)
	for try := 0; try < 2; try++ {
		f, err := os.OpenFile(p, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
		if err == nil {
			_, werr := fmt.Fprintf(f, "%d %s\n", os.Getpid(), host)
			if cerr := f.Close(); werr == nil {
				werr = cerr
			}
			if werr != nil {
				os.Remove(p)
				return nil
			}
			o.mu.Lock()
			o.locked = p
			o.mu.Unlock()
			return nil
		}
		if !os.IsExist(err) {
			return nil
		}
		le := &LockedError{Out: out}
		data, _ := readPrefix(p, 512)
		fields := strings.Fields(string(data))
		if len(fields) > 0 {
			le.PID, _ = strconv.Atoi(fields[0])
		}
		if len(fields) > 1 {
			le.Host = fields[1]
		}
		fi, err := os.Stat(p)
		if err != nil {
			continue // removed meanwhile: try again
		}
		le.Since = fi.ModTime()
		dead := le.Host == host && le.PID > 0 && le.PID != os.Getpid() && !processRunning(le.PID)
		if !dead && time.Since(le.Since) < staleAnyAge {
			return le
		}
		os.Remove(p) // stale: its batch was killed
	}
	return nil
}

// UnfinishedCommit is what a journal left in the output folder says: a
// batch was killed while it wrote its manifests, so the folder holds some
// of them new and the others as they were.
type UnfinishedCommit struct {
	// PID and Host are the killed batch's; Started is when its commit
	// began.
	PID     int       `json:"pid"`
	Host    string    `json:"host,omitempty"`
	Started time.Time `json:"started"`
	// Manifests are the files (Config.Out joined with the name) it was
	// to write; Written those of them it wrote (each is new since its
	// commit began), the others it did not.
	Manifests []string `json:"manifests"`
	Written   []string `json:"written"`
}

// journal is the journal file's content.
type journal struct {
	PID       int       `json:"pid"`
	Host      string    `json:"host,omitempty"`
	Started   time.Time `json:"started"`
	Manifests []string  `json:"manifests"` // file names in the output folder
}

// readJournal reads the journal a killed commit left in outAbs, if any,
// and says which of its manifests were written: those modified since the
// journal was.
func readJournal(out, outAbs string) *UnfinishedCommit {
	p := filepath.Join(outAbs, journalName)
	fi, err := os.Stat(p)
	if err != nil {
		return nil
	}
	var j journal
	data, err := os.ReadFile(p)
	if err == nil {
		err = json.Unmarshal(data, &j)
	}
	uc := &UnfinishedCommit{PID: j.PID, Host: j.Host, Started: j.Started, Manifests: []string{}, Written: []string{}}
	if err != nil || j.Started.IsZero() {
		uc.Started = fi.ModTime()
	}
	for _, name := range j.Manifests {
		if name != filepath.Base(name) || strings.HasPrefix(name, ".") {
			continue // not a name a commit writes
		}
		shown := path.Join(filepath.ToSlash(out), name)
		uc.Manifests = append(uc.Manifests, shown)
		if mi, err := os.Stat(filepath.Join(outAbs, name)); err == nil && !mi.ModTime().Before(fi.ModTime()) {
			uc.Written = append(uc.Written, shown)
		}
	}
	return uc
}

// writeJournal records, before a commit writes anything, the manifests
// it is about to write (a new file, then a rename, so a journal is never
// half written; on a full disk, no file is left: writeFile).
func writeJournal(create createFunc, outAbs string, names []string) error {
	host, _ := os.Hostname()
	data, err := json.Marshal(journal{PID: os.Getpid(), Host: host, Started: time.Now().UTC(), Manifests: names})
	if err != nil {
		return err
	}
	tmp := filepath.Join(outAbs, journalName+".tmp")
	os.Remove(tmp)
	if err := writeFile(create, tmp, append(data, '\n')); err != nil {
		return fmt.Errorf("cannot write the commit journal: %w", err)
	}
	if err := os.Rename(tmp, filepath.Join(outAbs, journalName)); err != nil {
		os.Remove(tmp)
		return err
	}
	return nil
}
