package ask

import "github.com/compose2manifest/compose2manifest/declare"

// Apply writes a's settings and entries into doc: an existing entry for
// the same source is replaced in place, keeping its key and comments; a
// new one is added at the end of its section. Entries with nothing to
// write are left out.
func Apply(doc *declare.Document, a *Answers) {
	if a.HostProjectDirectory != "" {
		doc.SetScalar("host_project_directory", a.HostProjectDirectory)
	}
	if a.VolumeRoot != "" {
		doc.SetScalar("volume_root", a.VolumeRoot)
	}
	for _, e := range append(a.Entries[:len(a.Entries):len(a.Entries)], a.Directories...) {
		if !e.Write {
			continue
		}
		key := e.Key
		if e.Section != declare.SectionDirectories {
			key = declare.EscapeKey(key) // compose keys are interpolated
		}
		doc.SetEntry(e.Section, key, e.Entry)
	}
}
