package rules_test

import (
	"testing"

	"github.com/compose2manifest/compose2manifest/rules"
)

// A module named after a daemon that runs its configuration's hooks as
// root does not get /etc/MODULE (found by trying the tool as a user
// would: /etc/letsencrypt/renewal-hooks owned by 1000:1000 passed).
func TestModuleEtcRootHooks(t *testing.T) {
	for _, m := range []string{"letsencrypt", "crio", "fail2ban", "rancher", "k3s", "gitlab-runner", "resolvconf", "dnsmasq.d", "sudo", "sshd",
		"xinetd.d", "inetd.conf", "doas.conf", "sudo-ldap.conf", "hosts.allow", "krb5.conf", "sssd", "nslcd.conf", "samba", "wireguard"} {
		if got := rules.ModuleEtc(m); got != "" {
			t.Errorf("ModuleEtc(%q) = %q, want none: the host's", m, got)
		}
	}
	if got := rules.ModuleEtc("mail"); got != "/etc/mail" {
		t.Errorf("ModuleEtc(mail) = %q", got)
	}
}

// The host's runtime configuration directories under /run and the extra
// users' database are the host's, though /run and /var/lib are data roots.
func TestOwnableRootConfig(t *testing.T) {
	for _, p := range []string{"/run/modprobe.d", "/run/modprobe.d/x.conf", "/run/tmpfiles.d", "/run/binfmt.d", "/run/sysctl.d",
		"/run/modules-load.d", "/run/sysusers.d", "/run/nologin", "/var/lib/extrausers", "/var/lib/extrausers/passwd"} {
		if why, ok := rules.Ownable(p, "app", nil); ok {
			t.Errorf("Ownable(%q) = ok (%s), want refused", p, why)
		}
	}
}
