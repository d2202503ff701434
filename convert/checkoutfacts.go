package convert

import (
	"fmt"
	"strings"

	"github.com/compose2manifest/compose2manifest/declare"
	"github.com/compose2manifest/compose2manifest/manifest"
	"github.com/compose2manifest/compose2manifest/placement"
	"github.com/compose2manifest/compose2manifest/project"
)

// checkoutValues fills the owner, mode and intent r still lacks, for a
// relative bind source that is a file or directory of the checkout (the
// module's repo) which every service mounts read-only: the software only
// reads it and the repo can recreate it, which is what intent config
// means; the host ships it as root's, mode 0644 (0755 for a file its
// owner may run, and for a directory), as git records a file's mode
// whatever the checkout's umask, so that a laptop and CI agree (no other
// bit of the checkout's mode counts, for the same reason). Nothing is
// produced for a source whose path names a secret (a password file, a private key: readable by every
// user of the host at 0644), for a link out of the project, or for a
// kind the survey, not the checkout, told.
func (c *converter) checkoutValues(f *sourceFacts) {
	s, r, ev := f.s, f.r, f.ev
	if !checkoutRead(s, ev) || string(ev.Kind) != string(r.Kind) {
		return
	}
	if why := checkoutSecret(s); why != "" {
		f.provenance = append(f.provenance, "nothing produced from the checkout: "+why+", which mode 0644 would show every user of the host")
		return
	}
	mode := "0644"
	if ev.Kind == declare.KindDirectory || ev.Executable {
		mode = "0755"
	}
	from := fmt.Sprintf("%s, a %s of the checkout mounted read-only everywhere", s.Key, ev.Kind)
	var fields []string
	if r.Owner == "" {
		r.Owner = "0:0"
		fields = append(fields, "owner")
		c.setFrom(s, "owner", from)
	}
	if r.Mode == "" {
		r.Mode = mode
		fields = append(fields, "mode")
		c.setFrom(s, "mode", from)
	}
	if r.Intent == "" {
		r.Intent = manifest.IntentConfig
		fields = append(fields, "intent")
	}
	if len(fields) > 0 {
		f.provenance = append(f.provenance, fmt.Sprintf("%s produced: %s is a %s of the checkout, mounted read-only everywhere: the software only reads it and the repo recreates it (config); the host ships it root's, mode %s as git records it",
			strings.Join(fields, ", "), s.Key, ev.Kind, mode))
	}
}

// checkoutSecret says why the bind source of s, a file or directory of
// the checkout, holds a secret, "" when nothing says so: its path names
// one, or a container reads it where secrets are kept (a key at
// /root/.ssh/id_rsa, a file under /run/secrets, a wireguard config),
// whatever its name in the checkout.
func checkoutSecret(s *placement.Placement) string {
	if project.SecretFileName(strings.TrimPrefix(s.Key, "./")) {
		return "its path names a secret"
	}
	for _, m := range s.Mounts {
		if project.SecretFileName(m.Target) {
			return fmt.Sprintf("service %q reads it at %s, a secret's place", m.Service, m.Target)
		}
	}
	return ""
}

// checkoutRead reports whether the bind source of s is, by the
// checkout's evidence ev, a file or directory of the checkout (no link
// out, not a kind the survey told) that every service mounts read-only.
func checkoutRead(s *placement.Placement, ev project.SourceEvidence) bool {
	return s.Section == declare.SectionBinds && ev.Outside == "" && ev.Surveyed == "" && len(s.Mounts) > 0 &&
		(ev.Kind == declare.KindFile || ev.Kind == declare.KindDirectory) && !writable(s)
}

// checkoutConfig reports whether the bind source of s is config by the
// checkout's evidence ev alone (checkoutValues): read-only from the
// checkout (checkoutRead), no secret. Layout fhs places such a source by
// that intent.
func checkoutConfig(s *placement.Placement, ev project.SourceEvidence) bool {
	return checkoutRead(s, ev) && checkoutSecret(s) == ""
}
