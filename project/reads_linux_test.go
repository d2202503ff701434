package project

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"strings"
	"syscall"
	"testing"

	"github.com/compose-spec/compose-go/v2/loader"
)

// opens watches dir (not its subfolders) with inotify until the function
// it returns is called, which returns how many times each file in dir
// was opened meanwhile, by name. Every open(2) of a file queues an
// IN_OPEN event before the call returns, whoever opens it: this package,
// compose-go or the Go runtime. Closes are watched too, though not
// counted: inotify merges an event into the one queued before it when
// the two are the same, so two opens in a row, with no close between
// them to tell them apart, would count once.
func opens(t *testing.T, dir string) func() map[string]int {
	t.Helper()
	fd, err := syscall.InotifyInit1(syscall.IN_CLOEXEC | syscall.IN_NONBLOCK)
	if err != nil {
		t.Skipf("inotify: %v", err)
	}
	if _, err := syscall.InotifyAddWatch(fd, dir, syscall.IN_OPEN|syscall.IN_CLOSE_NOWRITE); err != nil {
		syscall.Close(fd)
		t.Skipf("inotify: %v", err)
	}
	return func() map[string]int {
		defer syscall.Close(fd)
		count := map[string]int{}
		buf := make([]byte, 64<<10)
		for {
			n, err := syscall.Read(fd, buf)
			if errors.Is(err, syscall.EAGAIN) || n <= 0 {
				return count
			}
			if err != nil {
				t.Fatalf("inotify: %v", err)
			}
			for off := 0; off+syscall.SizeofInotifyEvent <= n; {
				mask := binary.NativeEndian.Uint32(buf[off+4:])
				size := int(binary.NativeEndian.Uint32(buf[off+12:]))
				name := string(bytes.TrimRight(buf[off+syscall.SizeofInotifyEvent:off+syscall.SizeofInotifyEvent+size], "\x00"))
				if mask&syscall.IN_Q_OVERFLOW != 0 {
					t.Fatal("inotify: events lost")
				}
				if mask&syscall.IN_OPEN != 0 && mask&syscall.IN_ISDIR == 0 && name != "" {
					count[name]++
				}
				off += syscall.SizeofInotifyEvent + size
			}
		}
	}
}

// TestReadOnce: Load opens each -f compose file once, compose-go
// included (it is handed the bytes read), and asks compose-go to load
// the project once, whether it loads or is refused as inconsistent
// (whose every problem is named from the same model). An env file this
// package reads (the .env, the env files of an include, a service's
// env_file for its unset variables, and all of them for Inputs and for
// masking an error) it reads once (envReads). What compose-go reads by
// path, having no way to be handed it, is read again: a file an include
// or an extends.file names (once by the raw index, once by compose-go),
// an include's env files (the .env here) and a service's env_file.
func TestReadOnce(t *testing.T) {
	cases := []struct {
		name  string
		files map[string]string
		args  []string
		err   string // "" when the project loads
		want  map[string]int
	}{
		{
			name: "default files, override, .env, include, extends",
			files: map[string]string{
				"compose.yaml":          "include:\n  - inc.yaml\nservices:\n  web:\n    image: nginx:${TAG}\n    env_file: app.env\n    extends: {file: base.yaml, service: base}\n",
				"compose.override.yaml": "services:\n  web:\n    labels: {b: c}\n",
				"inc.yaml":              "services:\n  inc:\n    image: busybox:1\n",
				"base.yaml":             "services:\n  base:\n    labels: {a: b}\n",
				"app.env":               "A=1\n",
				".env":                  "TAG=1\n",
			},
			// .env: ours, and compose-go's for the include in its
			// folder; app.env: compose-go's and ours.
			want: map[string]int{"compose.yaml": 1, "compose.override.yaml": 1, "inc.yaml": 2, "base.yaml": 2, ".env": 2, "app.env": 2},
		},
		{
			name: "eight -f files",
			files: map[string]string{
				"a.yaml": "services:\n  a:\n    image: nginx:1\n", "b.yaml": "services:\n  b:\n    image: nginx:1\n",
				"c.yaml": "services:\n  c:\n    image: nginx:1\n", "d.yaml": "services:\n  d:\n    image: nginx:1\n",
				"e.yaml": "services:\n  e:\n    image: nginx:1\n", "f.yaml": "services:\n  f:\n    image: nginx:1\n",
				"g.yaml": "services:\n  g:\n    image: nginx:1\n", "h.yaml": "name: eight\nservices:\n  h:\n    image: nginx:1\n",
			},
			args: []string{"a.yaml", "b.yaml", "c.yaml", "d.yaml", "e.yaml", "f.yaml", "g.yaml", "h.yaml"},
			want: map[string]int{"a.yaml": 1, "b.yaml": 1, "c.yaml": 1, "d.yaml": 1, "e.yaml": 1, "f.yaml": 1, "g.yaml": 1, "h.yaml": 1},
		},
		{
			name: "inconsistent",
			files: map[string]string{
				"compose.yaml": "services:\n  a:\n    image: nginx:1\n    volumes: [dbdata:/data]\n    networks: [nowhere]\n  b:\n    build: .\n    secrets: [db-pass]\nvolumes:\n  db-data: {}\nsecrets:\n  db_pass: {file: ./p}\n",
				".env":         "X=1\n",
			},
			err:  "the project is not consistent:\ncompose.yaml:5: service \"a\" refers to undefined network nowhere\ncompose.yaml:4: service \"a\" refers to undefined volume dbdata; did you mean db-data?\ncompose.yaml:8: service \"b\" refers to undefined secret db-pass; did you mean db_pass?",
			want: map[string]int{"compose.yaml": 1, ".env": 1},
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			writeFiles(t, dir, c.files)
			loads := 0
			stop := opens(t, dir)
			p, err := Load(context.Background(), Options{WorkingDirectory: dir, ConfigFiles: c.args, Environ: []string{}, onLoad: func(*loader.Options) { loads++ }})
			if err == nil {
				_, err = p.Inputs()
			}
			got := stop()
			switch {
			case c.err == "" && err != nil:
				t.Fatal(err)
			case c.err != "" && (err == nil || !strings.Contains(err.Error(), c.err)):
				t.Fatalf("error %v, want %q", err, c.err)
			}
			if loads != 1 {
				t.Errorf("compose-go asked to load the project %d times, want once", loads)
			}
			for name, n := range c.want {
				if got[name] != n {
					t.Errorf("%s opened %d times, want %d", name, got[name], n)
				}
			}
			for name, n := range got {
				if _, ok := c.want[name]; !ok {
					t.Errorf("%s opened %d times, want never", name, n)
				}
			}
		})
	}
}
