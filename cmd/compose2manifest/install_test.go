package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// readmeInstall returns the install command the README's Install section
// gives for a clone: the line of its first sh block that runs go install.
func readmeInstall(t *testing.T) []string {
	t.Helper()
	install := readmeSection(t, "Install")
	m := regexp.MustCompile(`(?m)^(go install \./cmd/compose2manifest)\b`).FindStringSubmatch(install)
	if m == nil {
		t.Fatal("README's Install section has no `go install ./cmd/compose2manifest` line")
	}
	return strings.Fields(m[1])
}

// TestREADMEInstall runs the README's install command from this checkout
// as on a fresh machine: GOPATH and GOBIN are empty temporary folders,
// while the module cache, the build cache and GOPROXY stay the machine's
// (nothing is fetched beyond the module proxy). The installed binary
// must run.
func TestREADMEInstall(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	goBin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command")
	}
	goEnv := func(name string) string {
		out, err := exec.Command(goBin, "env", name).Output()
		if err != nil {
			t.Fatalf("go env %s: %v", name, err)
		}
		return strings.TrimSpace(string(out))
	}
	tmp := t.TempDir()
	gopath, gobin := filepath.Join(tmp, "gopath"), filepath.Join(tmp, "bin")
	env := []string{}
	for _, kv := range os.Environ() {
		k, _, _ := strings.Cut(kv, "=")
		switch k {
		case "GOPATH", "GOBIN", "GOMODCACHE", "GOCACHE", "GOPROXY", "GOFLAGS", "GOENV":
			continue
		}
		env = append(env, kv)
	}
	env = append(env, "GOPATH="+gopath, "GOBIN="+gobin, "GOENV=off",
		"GOMODCACHE="+goEnv("GOMODCACHE"), "GOCACHE="+goEnv("GOCACHE"), "GOPROXY="+goEnv("GOPROXY"),
		"GOFLAGS="+os.Getenv("GOFLAGS"))

	args := readmeInstall(t)
	cmd := exec.Command(goBin, args[1:]...)
	cmd.Dir = "../.."
	cmd.Env = env
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("%s: %v\n%s", strings.Join(args, " "), err, out)
	}
	bin := filepath.Join(gobin, "compose2manifest")
	out, err := exec.Command(bin, "version").CombinedOutput()
	if err != nil {
		t.Fatalf("%s version: %v\n%s", bin, err, out)
	}
	// From a clone: a version from the VCS (a pseudo-version) and the
	// revision; (devel) without one when VCS stamping is off (.ci/run sets
	// GOFLAGS=-buildvcs=false) or the checkout is a git worktree.
	if !regexp.MustCompile(`^compose2manifest (v\S+ revision [0-9a-f]{40}|\(devel\) \(no VCS revision)`).Match(out) {
		t.Errorf("%s version = %q", bin, out)
	}
	t.Logf("%s", out)
	if out, err := exec.Command(bin, "explain", "C2M001").CombinedOutput(); err != nil || !strings.HasPrefix(string(out), "C2M001 (error)") {
		t.Errorf("explain C2M001: %v\n%s", err, out)
	}
}
