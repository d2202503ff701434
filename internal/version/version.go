// Package version says which build of compose2manifest is running, from
// the build information the Go toolchain records in the binary
// (runtime/debug.ReadBuildInfo): the module version, and the VCS revision
// when the binary was built from a checkout with VCS stamping; or, for a
// build from a copy of the source that is no checkout (the GitHub Action's),
// what its builder stamped at link time.
package version

import (
	"crypto/sha256"
	"encoding/hex"
	"io"
	"os"
	"runtime/debug"
	"strings"
)

// Module is the module path of compose2manifest, as go.mod says it.
const Module = "github.com/compose2manifest/compose2manifest"

// Info is what the build information says of this binary.
type Info struct {
	// Version is the module version: "v1.2.3" for a binary installed
	// with go install MODULE@VERSION, "(devel)" for one built from a
	// checkout; never empty.
	Version string
	// Revision is the VCS revision the binary was built from, when the
	// toolchain stamped it (not with -buildvcs=false, nor for go test or
	// go install MODULE@VERSION); Modified says the work tree had
	// uncommitted changes; Time is the commit's time (RFC 3339).
	Revision string
	Modified bool
	Time     string
	// GoVersion is the toolchain that built the binary.
	GoVersion string
	// Source is, for a build its builder stamped (Stamp), the sha256 of
	// the source tree it built; else empty.
	Source string
}

// What a builder that knows more than the build information stamps at
// link time, never set otherwise (the GitHub Action builds with
// -ldflags "-X MODULE/internal/version.stampedVersion=REF ..."): the ref the
// source was taken at, its commit when known, and the sha256 the builder
// computed of the source tree. See Stamp.
var stampedVersion, stampedRevision, stampedSource string

// Get returns the running binary's Info.
func Get() Info {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		bi = &debug.BuildInfo{}
	}
	return fromBuildInfo(bi).Stamp(stampedVersion, stampedRevision, stampedSource)
}

// Stamp returns in with what a builder stamped filled in where the build
// information has nothing: version (a ref such as "v1.2.0" or "main")
// when in's is "(devel)", revision when it has none, and source, the
// sha256 of the source tree built.
func (in Info) Stamp(version, revision, source string) Info {
	if version != "" && in.Version == "(devel)" {
		in.Version = version
	}
	if revision != "" && in.Revision == "" {
		in.Revision = revision
	}
	in.Source = source
	return in
}

func fromBuildInfo(bi *debug.BuildInfo) Info {
	in := Info{Version: bi.Main.Version, GoVersion: bi.GoVersion}
	if in.Version == "" {
		in.Version = "(devel)"
	}
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			in.Revision = s.Value
		case "vcs.modified":
			in.Modified = s.Value == "true"
		case "vcs.time":
			in.Time = s.Value
		}
	}
	return in
}

// String is the one line "compose2manifest version" prints:
//
//	compose2manifest v1.2.0
//	compose2manifest (devel) revision 0123abcd… (modified), 2025-01-02T03:04:05Z
//	compose2manifest (devel) (no VCS revision: built with -buildvcs=false or by go test)
//	compose2manifest main (source sha256 9f86d081…), go1.26.8      (stamped: Stamp)
func (in Info) String() string {
	var b strings.Builder
	b.WriteString("compose2manifest ")
	b.WriteString(in.Version)
	switch {
	case in.Revision != "":
		b.WriteString(" revision ")
		b.WriteString(in.Revision)
		if in.Modified {
			b.WriteString(" (modified)")
		}
		if in.Time != "" {
			b.WriteString(", " + in.Time)
		}
	case in.Version == "(devel)" && in.Source == "":
		b.WriteString(" (no VCS revision: built with -buildvcs=false, by go test or outside a checkout)")
	}
	if in.Source != "" {
		b.WriteString(" (source sha256 " + in.Source + ")")
	}
	if in.GoVersion != "" {
		b.WriteString(", " + in.GoVersion)
	}
	return b.String()
}

// Identity returns a string that names exactly the code of the running
// binary, for keying what it computed: the module version of a released
// build ("v1.2.3"), the VCS revision of one built from a clean checkout,
// else "exe:" and the sha256 of the executable file (a build from a
// modified checkout, a test binary). "" when none can be had.
func Identity() string {
	in := Get()
	switch {
	case in.Source != "":
		return "src:" + in.Source // a ref such as main names no one tree
	case in.Version != "(devel)":
		return in.Version
	case in.Revision != "" && !in.Modified:
		return "rev:" + in.Revision
	}
	exe, err := os.Executable()
	if err != nil {
		return ""
	}
	f, err := os.Open(exe)
	if err != nil {
		return ""
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return ""
	}
	return "exe:" + hex.EncodeToString(h.Sum(nil))
}
