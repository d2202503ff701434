package rules_test

import (
	"testing"

	"github.com/compose2manifest/compose2manifest/rules"
)

// A module named after a daemon that runs its configuration's hooks as
// root does not get /etc/MODULE (found by trying the tool as a user
// would: /etc/letsencrypt/renewal-hooks owned by 1000:1000 passed).
func TestModuleEtcRootHooks(t *testing.T) {
	for _, m := range []string{"letsencrypt", "crio", "fail2ban", "rancher", "k3s", "gitlab-runner", "resolvconf", "dnsmasq.d", "sudo", "sshd"} {
		if got := rules.ModuleEtc(m); got != "" {
			t.Errorf("ModuleEtc(%q) = %q, want none: the host's", m, got)
		}
	}
	if got := rules.ModuleEtc("mail"); got != "/etc/mail" {
		t.Errorf("ModuleEtc(mail) = %q", got)
	}
}
