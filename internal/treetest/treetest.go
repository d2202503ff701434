//go:build linux

// Package treetest lists a directory tree for tests that copy trees and
// must find the copy exact: the plan script's tests.
package treetest

import (
	"crypto/sha256"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"syscall"
	"testing"
)

// Listing is every entry under dir, one a line: its mode, owner, link count, size,
// link target, content hash, xattrs and, with times, mtime and ctime.
// The entry "." is left out when top is false.
func Listing(t testing.TB, dir string, times, top bool) string {
	t.Helper()
	var lines []string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		if rel == "." && !top {
			return nil
		}
		var st syscall.Stat_t
		if err := syscall.Lstat(p, &st); err != nil {
			return err
		}
		line := fmt.Sprintf("%q mode=%o uid=%d gid=%d nlink=%d size=%d", rel, st.Mode, st.Uid, st.Gid, st.Nlink, st.Size)
		switch st.Mode & syscall.S_IFMT {
		case syscall.S_IFLNK:
			target, err := os.Readlink(p)
			if err != nil {
				return err
			}
			line += fmt.Sprintf(" -> %q", target)
		case syscall.S_IFREG:
			data, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			line += fmt.Sprintf(" sha256=%x sparse=%v", sha256.Sum256(data), st.Blocks*512 < st.Size/2)
			buf := make([]byte, 4096)
			if n, err := syscall.Listxattr(p, buf); err == nil && n > 0 {
				names := strings.Split(strings.TrimRight(string(buf[:n]), "\x00"), "\x00")
				sort.Strings(names)
				for _, name := range names {
					v := make([]byte, 4096)
					m, _ := syscall.Getxattr(p, name, v)
					line += fmt.Sprintf(" xattr %s=%q", name, v[:max(m, 0)])
				}
			}
		}
		if times {
			line += fmt.Sprintf(" mtime=%d.%d ctime=%d.%d", st.Mtim.Sec, st.Mtim.Nsec, st.Ctim.Sec, st.Ctim.Nsec)
		}
		lines = append(lines, line)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return strings.Join(lines, "\n")
}
