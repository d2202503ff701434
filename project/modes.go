package project

import (
	"strconv"

	"github.com/compose-spec/compose-go/v2/types"
	"github.com/compose2manifest/compose2manifest/manifest"
	"go.yaml.in/yaml/v3"
)

// DecimalMode is a mode: of a service's secret, config or build secret
// written as a plain YAML integer whose digits read as octal too (mode:
// 440): docker compose takes the integer as it is, decimal 440, which is
// octal 0670, where the author most likely meant octal 0440.
type DecimalMode struct {
	// Service is the service whose entry writes it.
	Service string
	// Field is where: "secrets", "configs" or "build.secrets".
	Field string
	// Source is the secret's or config's name (the entry's source:).
	Source string
	// Written is the integer as written ("440").
	Written string
	// Mode is the mode docker compose applies, the integer itself.
	Mode int64
	// Pos is the mode: line.
	Pos manifest.Pos
}

// DecimalModes returns the long-syntax secrets, configs and build secrets
// of svc whose mode: is an integer written in decimal whose digits also
// read as octal (755, 440; not 0440, 0o440, "440" or 7), in field and
// source order, when the loaded project still holds that mode (a later
// file may override it). tmpfs modes are Mount.DecimalMode.
func (l *Project) DecimalModes(svc types.ServiceConfig) []DecimalMode {
	var buildSecrets []types.ServiceSecretConfig
	if svc.Build != nil {
		buildSecrets = svc.Build.Secrets
	}
	loaded := map[string][]types.FileReferenceConfig{"secrets": nil, "configs": nil, "build.secrets": nil}
	for _, s := range svc.Secrets {
		loaded["secrets"] = append(loaded["secrets"], types.FileReferenceConfig(s))
	}
	for _, c := range svc.Configs {
		loaded["configs"] = append(loaded["configs"], types.FileReferenceConfig(c))
	}
	for _, s := range buildSecrets {
		loaded["build.secrets"] = append(loaded["build.secrets"], types.FileReferenceConfig(s))
	}
	var out []DecimalMode
	for _, field := range []string{"secrets", "configs", "build.secrets"} {
		written := map[string]DecimalMode{} // source -> its last decimal mode
		var order []string
		for _, def := range l.serviceDefs(svc.Name) {
			list := get(def.node, field)
			if field == "build.secrets" {
				list = get(get(def.node, "build"), "secrets")
			}
			for _, item := range seqItems(list) {
				mode := get(item, "mode")
				source := def.file.subst(scalar(get(item, "source")))
				if item.Kind != yaml.MappingNode || source == "" {
					continue
				}
				if mode == nil {
					continue // the mode an earlier file writes stays
				}
				if !decimalOctal(mode) {
					delete(written, source)
					continue
				}
				if _, ok := written[source]; !ok {
					order = append(order, source)
				}
				written[source] = DecimalMode{Service: svc.Name, Field: field, Source: source, Written: mode.Value,
					Pos: manifest.Pos{File: def.file.name, Line: mode.Line}}
			}
		}
		for _, source := range order {
			d, ok := written[source]
			if !ok || !holdsMode(loaded[field], source, d.Written) {
				continue
			}
			d.Mode, _ = strconv.ParseInt(d.Written, 10, 64)
			out = append(out, d)
		}
	}
	return out
}

// holdsMode reports whether an entry of refs for source has the mode
// written, read as decimal.
func holdsMode(refs []types.FileReferenceConfig, source, written string) bool {
	for _, r := range refs {
		if r.Source == source && r.Mode != nil && strconv.FormatInt(int64(*r.Mode), 10) == written {
			return true
		}
	}
	return false
}
