package batch

import (
	"bufio"
	"fmt"
	"io"
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
	if o.created == "" {
		return
	}
	for p := o.abs; ; p = filepath.Dir(p) {
		if os.Remove(p) != nil || p == o.created {
			return // not empty (or not ours): keep it and its parents
		}
	}
}

// writeFile writes data to a new file at p, mode 0644.
func writeFile(p string, data []byte) error {
	f, err := os.OpenFile(p, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		return err
	}
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
// replaced unless force, and the module then fails.
func commit(entries []Entry, out, outAbs string, force bool) {
	for i := range entries {
		e := &entries[i]
		if e.Status != convert.Converted || e.staged == "" {
			continue
		}
		name := e.Module + ".yaml"
		outcome, err := replace(e.staged, filepath.Join(outAbs, name), force)
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
// unless dst holds the same bytes or is a file compose2manifest did not
// generate.
func replace(staged, dst string, force bool) (WriteOutcome, error) {
	data, err := os.ReadFile(staged)
	if err != nil {
		return "", err
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
func orphans(entries []Entry, projects []Project, out, outAbs string) []Orphan {
	produced := map[string]bool{}
	unknown := map[string]bool{} // base names of failed projects of unknown module
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
		if produced[module] {
			continue
		}
		header, declared, ok := readHead(filepath.Join(outAbs, name))
		if !ok || produced[declared] {
			continue
		}
		from := headerSource(header)
		if dir, _, ok := strings.Cut(from, "/"); ok && unknown[dir] {
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

// headerSource returns the "PROJECT/FILE" a generated manifest's header
// names ("… generated by compose2manifest from mail/compose.yaml — …").
func headerSource(header string) string {
	_, rest, ok := strings.Cut(header, GeneratedMarker+" from ")
	if !ok {
		return ""
	}
	from, _, _ := strings.Cut(rest, " — ")
	return strings.TrimSpace(from)
}
