package rules_test

import (
	"fmt"
	"testing"

	"github.com/compose2manifest/compose2manifest/manifest"
	"github.com/compose2manifest/compose2manifest/rules"
)

// BenchmarkCheckLargeManifest runs every module-scope rule over one
// manifest of 20,000 declared paths and a container mounting them: the
// checks are O(N log N) in the resources (the parent-first check was
// quadratic: 2.6 s at this size).
func BenchmarkCheckLargeManifest(b *testing.B) {
	m := &manifest.Module{Version: manifest.Version, Module: "big"}
	m.Resources = append(m.Resources, manifest.Resource{Kind: manifest.KindDirectory, Path: "/srv/big", Owner: "0:0", Mode: "0755", Intent: manifest.IntentState})
	ct := &manifest.Container{Name: "app", Image: "example/app:1"}
	for i := range 20000 {
		p := fmt.Sprintf("/srv/big/d%03d/f%05d", i%100, i)
		if i%200 == 0 {
			m.Resources = append(m.Resources, manifest.Resource{Kind: manifest.KindDirectory, Path: fmt.Sprintf("/srv/big/d%03d", i%100), Owner: "0:0", Mode: "0755", Intent: manifest.IntentState})
		}
		m.Resources = append(m.Resources, manifest.Resource{Kind: manifest.KindDirectory, Path: p, Owner: "0:0", Mode: "0750", Intent: manifest.IntentState})
		ct.Volumes = append(ct.Volumes, manifest.Volume{Source: p, Target: fmt.Sprintf("/data/%d", i)})
	}
	m.Resources = append(m.Resources, manifest.Resource{Kind: manifest.KindContainer, Container: ct})
	list := rules.All()
	b.ReportAllocs()
	for b.Loop() {
		rules.Run(list, m)
	}
}
