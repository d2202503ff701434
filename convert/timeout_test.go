package convert

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// countdown is a context whose Err is nil for its first n calls and
// context.Canceled after: it says where a conversion looks at its context.
type countdown struct {
	context.Context
	n atomic.Int64
}

func (c *countdown) Err() error {
	if c.n.Add(-1) < 0 {
		return context.Canceled
	}
	return nil
}

// timeoutProject writes a project of n services with a declared bind each.
func timeoutProject(t *testing.T, n int) Options {
	t.Helper()
	dir := t.TempDir()
	var c, d strings.Builder
	c.WriteString("services:\n")
	d.WriteString("version: 1\nhost_project_directory: /opt/app\nbinds:\n")
	for i := range n {
		fmt.Fprintf(&c, "  s%d: {image: example/app:1, volumes: [./d%d:/d]}\n", i, i)
		fmt.Fprintf(&d, "  ./d%d: {owner: \"1:1\", mode: \"0750\", intent: state}\n", i)
	}
	d.WriteString("directories:\n  /opt/app: {owner: \"0:0\", mode: \"0755\", intent: config}\n")
	for name, data := range map[string]string{"compose.yaml": c.String(), DeclarationsFile: d.String()} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return Options{ProjectDirectory: dir, WorkingDirectory: dir, Environ: []string{}}
}

// TestConvertStopsWhenAbandoned: a conversion whose context is done stops
// at the next point it looks (before compose-go loads, at each service
// and placement, before encoding), returns the context's error and no
// manifest, and so stops using CPU and memory once abandoned; with a
// context that never ends it converts. Each count of looks lets it go one
// step further.
func TestConvertStopsWhenAbandoned(t *testing.T) {
	opts := timeoutProject(t, 20)
	stopped := 0
	for n := int64(0); ; n++ {
		ctx := &countdown{Context: context.Background()}
		ctx.n.Store(n)
		res, err := Convert(ctx, opts)
		if err == nil {
			if res.Status != Converted {
				t.Fatalf("after %d looks: status %s", n, res.Status)
			}
			break
		}
		if !errors.Is(err, context.Canceled) || res.Status != Failed || res.Manifest != nil || res.Module != nil {
			t.Fatalf("stopped after %d looks: %v, status %s, manifest %d bytes; want Canceled, failed, none", n, err, res.Status, len(res.Manifest))
		}
		stopped++
		if n > 1000 {
			t.Fatal("still stopping after 1,000 looks at the context")
		}
	}
	if stopped < 20 {
		t.Errorf("the conversion looks at its context %d times before converting, want one at least for each of its 20 services", stopped)
	}
}

// TestConvertTimeout: past Options.Timeout, Convert returns a
// *TimeoutError naming the bound and a failed result; a negative bound is
// refused; within the bound the conversion is the same.
func TestConvertTimeout(t *testing.T) {
	opts := timeoutProject(t, 200)
	opts.Timeout = time.Nanosecond
	res, err := Convert(context.Background(), opts)
	var te *TimeoutError
	if !errors.As(err, &te) || te.Timeout != time.Nanosecond || res.Status != Failed {
		t.Fatalf("Convert past its bound: %v, status %s; want a *TimeoutError, failed", err, res.Status)
	}
	if want := "not converted within 1ns (--project-timeout): abandoned"; err.Error() != want {
		t.Errorf("error %q, want %q", err, want)
	}
	opts.Timeout = -time.Second
	if _, err := Convert(context.Background(), opts); err == nil || !strings.Contains(err.Error(), "--project-timeout -1s: want 0 (no limit) or more") {
		t.Errorf("negative bound: %v", err)
	}
	opts.Timeout = time.Hour
	bounded, err := Convert(context.Background(), opts)
	if err != nil {
		t.Fatal(err)
	}
	opts.Timeout = 0
	free, err := Convert(context.Background(), opts)
	if err != nil {
		t.Fatal(err)
	}
	if bounded.Status != Converted || string(bounded.Manifest) != string(free.Manifest) {
		t.Errorf("within its bound: status %s, manifest differs: %v", bounded.Status, string(bounded.Manifest) != string(free.Manifest))
	}
}
