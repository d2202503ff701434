package check

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"strings"

	"github.com/compose2manifest/compose2manifest/manifest"
	"github.com/compose2manifest/compose2manifest/report"
	"github.com/compose2manifest/compose2manifest/rules"
)

// Previous is the manifests as they were before a change, for
// AddPrevious.
type Previous struct {
	// Modules are the previous manifests, decoded; their positions name
	// the old files.
	Modules []*manifest.Module
	// Planned reports whether a migration plan moves the data of one
	// declared path to another; nil plans nothing.
	Planned func(from, to string) bool
}

// ReadPreviousDir reads the manifests in oldDir (a directory or a file,
// expanded as check expands its paths, relative to dir) as the previous
// manifests. A manifest there that cannot be read or decoded is an error:
// a change cannot be judged against it.
func ReadPreviousDir(dir, oldDir string) ([]*manifest.Module, error) {
	files, errs := manifestFiles(dir, []string{oldDir})
	if len(errs) > 0 {
		return nil, errs[0]
	}
	var out []*manifest.Module
	for _, f := range files {
		data, err := readManifest(dir, f)
		if err != nil {
			return nil, err
		}
		m, err := manifest.Decode(f, data)
		if err != nil {
			return nil, err
		}
		out = append(out, m)
	}
	return out, nil
}

// ReadPreviousRev reads, with git in dir, the manifests paths name as
// they were at revision rev: a file is read with git show REV:./FILE (a
// file that did not exist then is new, not an error), a directory stands
// for the *.yaml and *.yml blobs directly in it at rev (git ls-tree). A
// read is bounded by manifest.MaxSize. Positions name REV:FILE.
func ReadPreviousRev(ctx context.Context, dir, rev string, paths []string) ([]*manifest.Module, error) {
	if rev == "" || strings.HasPrefix(rev, "-") {
		return nil, fmt.Errorf("revision %q: want a commit, branch or tag", rev)
	}
	if _, err := git(ctx, dir, "rev-parse", "--verify", "--quiet", rev+"^{commit}"); err != nil {
		return nil, fmt.Errorf("revision %q: not a commit here: %v", rev, err)
	}
	var files []string
	seen := map[string]bool{}
	for _, p := range paths {
		rel, err := relative(dir, p)
		if err != nil {
			return nil, err
		}
		if fi, err := os.Stat(resolve(dir, p)); err == nil && !fi.IsDir() {
			if !seen[rel] {
				seen[rel] = true
				files = append(files, rel)
			}
			continue
		}
		out, err := git(ctx, dir, "ls-tree", "-z", rev, "--", "./"+rel+"/")
		if err != nil {
			return nil, fmt.Errorf("%s at %s: %v", p, rev, err)
		}
		for _, ent := range strings.Split(strings.TrimRight(string(out), "\x00"), "\x00") {
			meta, name, ok := strings.Cut(ent, "\t")
			if !ok || !strings.Contains(meta, " blob ") {
				continue
			}
			base := path.Base(name)
			if !isManifestName(base) {
				continue
			}
			f := path.Join(rel, base)
			if !seen[f] {
				seen[f] = true
				files = append(files, f)
			}
		}
	}
	var mods []*manifest.Module
	for _, f := range files {
		data, err := git(ctx, dir, "show", rev+":./"+f)
		if err != nil {
			if isMissing(ctx, dir, rev, f) {
				continue // new since rev
			}
			return nil, fmt.Errorf("%s at %s: %v", f, rev, err)
		}
		m, err := manifest.Decode(rev+":"+f, data)
		if err != nil {
			return nil, err
		}
		mods = append(mods, m)
	}
	return mods, nil
}

// isMissing reports whether rev has no file f.
func isMissing(ctx context.Context, dir, rev, f string) bool {
	out, err := git(ctx, dir, "ls-tree", "-z", "--name-only", rev, "--", "./"+f)
	return err == nil && len(out) == 0
}

// git runs git in dir and returns its standard output, of at most
// manifest.MaxSize bytes.
func git(ctx context.Context, dir string, args ...string) ([]byte, error) {
	cmd := exec.CommandContext(ctx, "git", args...)
	cmd.Dir = dir
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	data, rerr := io.ReadAll(io.LimitReader(out, manifest.MaxSize+1))
	if len(data) > manifest.MaxSize {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
		return nil, fmt.Errorf("git %s: more than %d bytes", args[0], manifest.MaxSize)
	}
	if err := cmd.Wait(); err != nil {
		if msg := strings.TrimSpace(stderr.String()); msg != "" {
			return nil, errors.New(firstLine(msg))
		}
		return nil, err
	}
	return data, rerr
}

func firstLine(s string) string {
	line, _, _ := strings.Cut(s, "\n")
	return line
}

// relative returns p relative to dir, slash-separated and clean; a path
// outside dir is an error (git reads only its repository).
func relative(dir, p string) (string, error) {
	abs := resolve(dir, p)
	base := dir
	if base == "" {
		base = "."
	}
	rel, err := filepath.Rel(base, abs)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return "", fmt.Errorf("%s: outside the working directory, which --previous-rev reads with git", p)
	}
	return filepath.ToSlash(rel), nil
}

// AddPrevious holds the manifests res read (by Manifests or Against)
// against the previous manifests: it runs every rule of cfg.Rules with a
// CheckPrevious, adds each finding to its manifest's module (a finding
// about a module that is gone, to a module of its own, named by the old
// file), and orders the findings and sets the statuses again.
func AddPrevious(cfg Config, res *Result, prev Previous) {
	index := map[string]int{}
	var current []*manifest.Module
	for i, m := range res.Manifests {
		if m != nil && res.reread {
			// The previous rules compare containers too.
			if data, err := readManifest(cfg.Dir, m.Pos.File); err == nil {
				if whole, err := manifest.Decode(m.Pos.File, data); err == nil {
					m = whole
				}
			}
		}
		if m != nil {
			index[m.Pos.File] = i
			current = append(current, m)
		}
	}
	ds := rules.RunPrevious(cfg.rules(), &rules.PreviousPass{Current: current, Previous: prev.Modules, Planned: prev.Planned})
	for _, d := range ds {
		i, ok := index[d.File]
		if !ok {
			res.Report.Modules = append(res.Report.Modules, report.Module{Module: d.Module, File: d.File})
			res.Manifests = append(res.Manifests, nil)
			i = len(res.Report.Modules) - 1
			index[d.File] = i
		}
		res.Report.Modules[i].Diagnostics = append(res.Report.Modules[i].Diagnostics, d)
	}
	res.finish(cfg)
}
