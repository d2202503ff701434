package project

import (
	"bytes"
	"os"
	"slices"
	"strings"

	"go.yaml.in/yaml/v3"
)

// Files returns the absolute paths of every compose file the project was
// read from: the -f files (or the ones found by default) in order, then
// the files they include or extend. It is what a project uses of the
// compose files in its folder.
func (p *Project) Files() []string {
	out := append([]string(nil), p.ConfigFiles...)
	if p.raw == nil {
		return out
	}
	for _, f := range p.raw.files {
		if !slices.Contains(out, f.path) {
			out = append(out, f.path)
		}
	}
	return out
}

// YAMLName reports whether the name of path ends in .yml or .yaml, in any
// case (COMPOSE.YML, Compose.Yaml): a file docker compose does not find
// by default on a case-sensitive file system, but a compose file all the
// same, which a batch lists as not converted rather than passing over.
func YAMLName(path string) bool {
	l := strings.ToLower(path)
	return strings.HasSuffix(l, ".yml") || strings.HasSuffix(l, ".yaml")
}

// LooksLikeCompose reports whether the file at path looks like a compose
// file: its name ends in .yml or .yaml (YAMLName), it is a regular file (after
// symbolic links) of at most MaxInputSize bytes, and its first YAML
// document is a mapping with a top-level services: key whose value is a
// mapping. It reads the file only when the name and size qualify, and
// never fails: a file it cannot read or parse does not look like one.
func LooksLikeCompose(path string) bool {
	if !YAMLName(path) {
		return false
	}
	if CheckInputFile("compose file", path) != nil {
		return false
	}
	data, err := os.ReadFile(path)
	if err != nil || len(data) > MaxInputSize {
		return false
	}
	var doc yaml.Node
	if err := yaml.NewDecoder(bytes.NewReader(data)).Decode(&doc); err != nil || len(doc.Content) == 0 {
		return false
	}
	root := resolve(doc.Content[0])
	if root == nil || root.Kind != yaml.MappingNode {
		return false
	}
	s := resolve(get(root, "services"))
	return s != nil && s.Kind == yaml.MappingNode
}
