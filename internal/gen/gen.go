// Package gen writes synthetic compose project trees for benchmarks and
// tests of batch conversion: many projects, each with services and volumes
// that are all declared, so every project converts.
package gen

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// Shape says how big a generated tree is.
type Shape struct {
	// Projects is how many compose projects to write.
	Projects int
	// Services is how many services each project has.
	Services int
	// Volumes is how many volumes each service mounts: even ones are bind
	// mounts of folders under the project, odd ones named volumes.
	Volumes int
}

// Tree writes s.Projects projects into dir, in folders p00000, p00001, …
// (grouped 100 to a parent folder, g000, g001, …, so no folder is huge).
// Each has a compose.yaml and a compose2manifest.yaml declaring every
// source with owner, mode and intent, and its module name is its folder's.
// dir is created if missing.
func Tree(dir string, s Shape) error {
	for i := range s.Projects {
		p := filepath.Join(dir, fmt.Sprintf("g%03d", i/100), fmt.Sprintf("p%05d", i))
		if err := os.MkdirAll(p, 0o755); err != nil {
			return err
		}
		compose, decl := Project(fmt.Sprintf("p%05d", i), s.Services, s.Volumes)
		if err := os.WriteFile(filepath.Join(p, "compose.yaml"), compose, 0o644); err != nil {
			return err
		}
		if err := os.WriteFile(filepath.Join(p, "compose2manifest.yaml"), decl, 0o644); err != nil {
			return err
		}
	}
	return nil
}

// Project returns the compose file and the declarations of one project
// named module with the given number of services and volumes per service.
func Project(module string, services, volumes int) (compose, declarations []byte) {
	var c, binds, named strings.Builder
	c.WriteString("services:\n")
	for s := range services {
		uid := 1000 + s
		fmt.Fprintf(&c, "  svc%d:\n    image: registry.example.org/%s/app%d:1.%d\n    user: \"%d:%d\"\n", s, module, s, s, uid, uid)
		fmt.Fprintf(&c, "    restart: unless-stopped\n    environment:\n      LOG_LEVEL: info\n      LISTEN: \":%d\"\n", 8000+s)
		fmt.Fprintf(&c, "    ports:\n      - \"127.0.0.1:%d:%d\"\n    volumes:\n", 18000+s, 8000+s)
		for v := range volumes {
			if v%2 == 0 {
				fmt.Fprintf(&c, "      - ./data/svc%d-%d:/data/%d\n", s, v, v)
				fmt.Fprintf(&binds, "  ./data/svc%d-%d: {owner: \"%d:%d\", mode: \"0750\", intent: state}\n", s, v, uid, uid)
			} else {
				fmt.Fprintf(&c, "      - vol-svc%d-%d:/var/lib/app/%d\n", s, v, v)
				fmt.Fprintf(&named, "  vol-svc%d-%d: {owner: \"%d:%d\", mode: \"0700\", intent: state}\n", s, v, uid, uid)
			}
		}
	}
	if named.Len() > 0 {
		c.WriteString("volumes:\n")
		for s := range services {
			for v := 1; v < volumes; v += 2 {
				fmt.Fprintf(&c, "  vol-svc%d-%d: {}\n", s, v)
			}
		}
	}
	var d strings.Builder
	fmt.Fprintf(&d, "version: 1\nhost_project_directory: /opt/%s\nvolume_root: /srv\n", module)
	if binds.Len() > 0 {
		d.WriteString("binds:\n" + binds.String())
	}
	if named.Len() > 0 {
		d.WriteString("volumes:\n" + named.String())
	}
	fmt.Fprintf(&d, "directories:\n  /opt/%s: {owner: \"0:0\", mode: \"0755\", intent: config}\n", module)
	if binds.Len() > 0 {
		fmt.Fprintf(&d, "  /opt/%s/data: {owner: \"0:0\", mode: \"0755\", intent: state}\n", module)
	}
	if named.Len() > 0 {
		fmt.Fprintf(&d, "  /srv/%s: {owner: \"0:0\", mode: \"0755\", intent: state}\n", module)
	}
	return []byte(c.String()), []byte(d.String())
}

// Flat returns the compose file and the declarations of one project named
// module, as small as a project of that many resources can be: services
// services that run image "a", the first binds of which each mount a bind
// of their own, all declared. Its manifest has binds directories and
// services containers (and the two parent directories declared).
func Flat(module string, services, binds int) (compose, declarations []byte) {
	var c, d strings.Builder
	c.WriteString("services:\n")
	fmt.Fprintf(&d, "version: 1\nhost_project_directory: /opt/%s\nbinds:\n", module)
	for s := range services {
		if s < binds {
			fmt.Fprintf(&c, "  s%d: {image: a, volumes: [./d/%d:/d]}\n", s, s)
			fmt.Fprintf(&d, "  ./d/%d: {owner: \"1:1\", mode: \"0750\", intent: state}\n", s)
		} else {
			fmt.Fprintf(&c, "  s%d: {image: a}\n", s)
		}
	}
	fmt.Fprintf(&d, "directories:\n  /opt/%s: {owner: \"0:0\", mode: \"0755\", intent: config}\n", module)
	fmt.Fprintf(&d, "  /opt/%s/d: {owner: \"0:0\", mode: \"0755\", intent: state}\n", module)
	return []byte(c.String()), []byte(d.String())
}
