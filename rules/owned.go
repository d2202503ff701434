package rules

import (
	"path"
	"strings"

	"github.com/compose2manifest/compose2manifest/manifest"
)

// Where a module may own paths: an allowlist (C2M006). A module may own,
// as a directory or file, only a path inside a place meant for a
// service's data:
//
//   - below a data root (DataRoots: /srv, /opt, /var/lib, /var/cache,
//     /var/log, /var/spool, /run), less the host's own subtrees inside
//     them (SystemSubtrees: the container runtimes' and package
//     managers' state, cron's and the mail system's spools, system
//     daemons' sockets and state, the login records);
//   - /etc/MODULE, the module's own configuration directory, unless
//     that name is the host's own (/etc/ssh, /etc/cron.daily, …);
//   - a root of the module (Root): its host_project_directory, its
//     VOLUME_ROOT/MODULE and the directories its declarations name under
//     roots:, which the manifest records under roots: when they lie
//     outside the data roots.
//
// Anything else is the host's: the module may use it as kind: host.

// DataRoots returns the directories below which, by the Filesystem
// Hierarchy Standard 3.0, a service's data lives: /srv (data served by
// this system, FHS 3.17), /opt (add-on software, 3.13), /var/lib (state,
// 5.8), /var/cache (5.5), /var/log (5.10), /var/spool (5.14) and /run
// (run-time data, 3.15). The roots themselves are the host's.
func DataRoots() []string {
	return []string{"/srv", "/opt", "/var/lib", "/var/cache", "/var/log", "/var/spool", "/run"}
}

// systemSubtrees are the host's own directories and files inside the
// data roots, each with everything below it.
var systemSubtrees = []string{
	// Container runtimes and the CNI plugins they execute as root.
	"/var/lib/docker", "/var/lib/containerd", "/var/lib/containers", "/var/lib/kubelet",
	"/var/lib/cni", "/var/lib/lxc", "/var/lib/lxd", "/var/lib/incus", "/var/lib/libvirt",
	"/var/lib/machines", "/var/lib/snapd", "/var/lib/flatpak",
	"/opt/cni", "/opt/containerd",
	"/run/docker", "/run/docker.sock", "/run/containerd", "/run/podman", "/run/crio",
	"/run/netns", "/run/runc", "/run/k3s", "/run/flannel",
	// Package managers (FHS 5.8.2: /var/lib/<pkgtool>).
	"/var/lib/dpkg", "/var/lib/apt", "/var/lib/aptitude", "/var/lib/rpm", "/var/lib/dnf",
	"/var/lib/yum", "/var/lib/pacman", "/var/lib/ucf", "/var/lib/debconf",
	"/var/cache/apt", "/var/cache/debconf", "/var/cache/dnf", "/var/cache/yum",
	"/var/cache/pacman", "/var/cache/ldconfig", "/var/cache/man", "/var/cache/private",
	"/var/log/apt", "/var/log/dpkg.log", "/var/log/installer",
	// systemd, D-Bus, logind, PAM, sudo, polkit and other system daemons.
	"/var/lib/systemd", "/var/lib/private", "/var/lib/dbus", "/var/lib/polkit-1",
	"/var/lib/sudo", "/var/lib/pam", "/var/lib/AccountsService", "/var/lib/NetworkManager",
	"/var/lib/dhcp", "/var/lib/cloud", "/var/lib/logrotate", "/var/lib/sss",
	"/run/systemd", "/run/dbus", "/run/user", "/run/udev", "/run/lock", "/run/sudo",
	"/run/sshd", "/run/sshd.pid", "/run/utmp", "/run/initramfs", "/run/mount",
	"/run/credentials", "/run/log", "/run/motd.d", "/run/resolvconf", "/run/NetworkManager",
	"/run/cryptsetup", "/run/lvm", "/run/nscd", "/run/polkit", "/run/dmeventd-client",
	"/run/dmeventd-server",
	// Runtime configuration the host's own tools read as root: modprobe's
	// install lines run on the next module load; tmpfiles, binfmt, sysctl,
	// module and sysusers snippets; nologin locks every login out. The
	// extra users and groups libnss-extrausers reads.
	"/run/modprobe.d", "/run/tmpfiles.d", "/run/binfmt.d", "/run/sysctl.d",
	"/run/modules-load.d", "/run/sysusers.d", "/run/nologin", "/run/environment.d",
	"/run/systemd-journald", "/run/udev-rules.d", "/run/NetworkManager-dispatcher",
	"/var/lib/extrausers", "/var/lib/ldap", "/var/lib/krb5kdc",
	// The journal, the audit log and the login records (FHS 5.10.2).
	"/var/log/journal", "/var/log/private", "/var/log/audit", "/var/log/wtmp",
	"/var/log/btmp", "/var/log/lastlog", "/var/log/faillog", "/var/log/auth.log",
	"/var/log/secure", "/var/log/syslog", "/var/log/messages", "/var/log/kern.log",
	// cron's and at's spools, the mail spool and the host's MTA queues
	// (FHS 5.14.2, 5.9), the print spool.
	"/var/spool/cron", "/var/spool/anacron", "/var/spool/at", "/var/spool/atjobs",
	"/var/spool/atspool", "/var/spool/mail", "/var/spool/postfix", "/var/spool/exim4",
	"/var/spool/exim", "/var/spool/mqueue", "/var/spool/clientmqueue", "/var/spool/cups",
	"/var/spool/rsyslog",
}

// etcSystem are the names in /etc that are the host's own configuration:
// a module of that name does not get /etc/MODULE. What runs as root at
// boot, at login, from cron, or decides who may log in or what a program
// loads is here (FHS 3.7).
var etcSystem = []string{
	"X11", "alternatives", "apparmor", "apparmor.d", "apt", "audit", "bash.bashrc",
	"bash_completion.d", "binfmt.d", "ca-certificates", "cloud", "cni", "containerd",
	"containers", "cron.d", "cron.daily", "cron.hourly", "cron.monthly", "cron.weekly",
	"cron.yearly", "crontab", "crypttab", "dbus-1", "default", "dhcp", "dnf", "docker",
	"dpkg", "environment", "environment.d", "exports", "firewalld", "fstab", "group",
	"grub.d", "gshadow", "hostname", "hosts", "init", "init.d", "initramfs-tools",
	"iptables", "issue", "kernel", "kubernetes", "ld.so.cache", "ld.so.conf", "ld.so.conf.d",
	"ld.so.preload", "localtime", "login.defs", "logrotate.conf", "logrotate.d",
	"machine-id", "modprobe.d", "modules", "modules-load.d", "motd", "netplan", "network",
	"NetworkManager", "nftables.conf", "nsswitch.conf", "opt", "os-release", "pam.d",
	"passwd", "pki", "polkit-1", "profile", "profile.d", "rc.local", "rc0.d", "rc1.d",
	"rc2.d", "rc3.d", "rc4.d", "rc5.d", "rc6.d", "rcS.d", "resolv.conf", "rsyslog.conf",
	"rsyslog.d", "security", "selinux", "shadow", "shells", "skel", "ssh", "ssl", "subgid",
	"subuid", "sudo.conf", "sudoers", "sudoers.d", "sysconfig", "sysctl.conf", "sysctl.d",
	"systemd", "timezone", "tmpfiles.d", "udev", "ufw", "update-motd.d", "xdg", "yum",
	"yum.repos.d", "zsh",
	// Daemons and hooks that run what they find as root, or hold root's
	// tokens: certbot's renewal hooks, fail2ban's actions, CRI-O's and
	// k3s's configuration, runner tokens, dnsmasq's and resolvconf's
	// scripts, ppp's and the network dispatchers' hooks, ACPI events,
	// sleep hooks, supervisors.
	"acpi", "anacrontab", "at.allow", "at.deny", "certbot", "cron.allow", "cron.deny", "crio",
	"dnsmasq.conf", "dnsmasq.d", "fail2ban", "gitlab-runner", "incron.d", "k0s", "k3s",
	"keepalived", "letsencrypt", "monit", "monitrc", "networkd-dispatcher", "pm", "ppp",
	"rancher", "resolvconf", "rke2", "sshd", "sudo", "supervisor", "supervisord.conf",
	// Who may log in, from where, and with what rights: the inetd family,
	// doas, TCP wrappers, Kerberos, LDAP and SSSD, Samba, WireGuard's keys.
	"xinetd.d", "xinetd.conf", "inetd.conf", "doas.conf", "sudo-ldap.conf", "hosts.allow",
	"hosts.deny", "hosts.equiv", "krb5.conf", "krb5.keytab", "sssd", "nslcd.conf", "ldap",
	"openldap", "samba", "wireguard", "exim4", "postfix", "aliases", "mail.rc",
}

// rootTrees are where no root may be, nor lie, nor hold: the host's
// configuration, programs, kernel and device trees, temporary
// directories everyone writes, the legacy /var symlinks, the mail spool
// and the backups of the host's credential files (FHS 3, 5).
var rootTrees = []string{"/etc", "/usr", "/boot", "/proc", "/sys", "/dev", "/bin", "/sbin",
	"/lib", "/lib32", "/lib64", "/libx32", "/root", "/tmp", "/var/tmp", "/var/run",
	"/var/lock", "/var/mail", "/var/backups", "/var/crash", "/var/empty", "/snap",
	"/lost+found"}

// under reports whether p is t or lies below it.
func under(p, t string) bool { return p == t || manifest.IsAncestor(t, p) }

// SystemSubtree returns the host's own subtree of a data root that p is
// or lies in (/var/lib/docker for /var/lib/docker/volumes), or "".
func SystemSubtree(p string) string {
	for _, t := range systemSubtrees {
		if under(p, t) {
			return t
		}
	}
	return ""
}

// DataRoot reports whether p lies below a data root (DataRoots) and
// outside the host's subtrees in them: a place any module may own.
func DataRoot(p string) bool {
	for _, d := range DataRoots() {
		if manifest.IsAncestor(d, p) {
			return SystemSubtree(p) == ""
		}
	}
	return false
}

// ModuleEtc returns /etc/MODULE, the module's own configuration
// directory, or "" when module is not a plain name or /etc/MODULE is the
// host's own (/etc/ssh, /etc/cron.daily, /etc/docker, …).
func ModuleEtc(module string) string {
	if module == "" || module == "." || module == ".." || strings.ContainsAny(module, "/\x00") {
		return ""
	}
	for _, n := range etcSystem {
		if strings.EqualFold(module, n) {
			return ""
		}
	}
	return "/etc/" + module
}

// protectedHome returns why p, below /home, is a user's own: the home
// directory itself, anything under a dot entry of it (~/.ssh,
// ~/.bashrc, ~/.config) or under ~/bin, which login shells put on PATH.
func protectedHome(p string) (string, bool) {
	rest, ok := strings.CutPrefix(p, "/home/")
	if !ok || rest == "" {
		return "", false
	}
	user, sub, _ := strings.Cut(rest, "/")
	if sub == "" {
		return "a user's home directory", true
	}
	first, _, _ := strings.Cut(sub, "/")
	if strings.HasPrefix(first, ".") || first == "bin" {
		return "in the home directory of " + user + ", where its login reads or runs files", true
	}
	return "", false
}

// Root reports whether p may be a module root (host_project_directory,
// VOLUME_ROOT/MODULE, an entry of roots:), and why not: a root is an
// absolute, clean directory that is not a system directory (SystemPaths)
// or a host path (HostPath), does not lie in or hold the host's
// configuration, programs or kernel trees (/etc, /usr, /boot, /proc,
// /sys, /dev, /bin, /lib, /root, /tmp, /var/tmp, /var/run, /var/mail,
// …), is not a data root's system subtree (/var/lib/docker, …), and is
// not a user's home directory or a dot entry or ~/bin in one.
func Root(p string) (why string, ok bool) {
	if !strings.HasPrefix(p, "/") || path.Clean(p) != p {
		return "not an absolute, clean path", false
	}
	if why, host := HostPath(p); host {
		return why, false
	}
	for _, t := range rootTrees {
		switch {
		case p == t:
			return "a system directory", false
		case manifest.IsAncestor(t, p):
			return "under " + t, false
		case manifest.IsAncestor(p, t):
			return "it holds " + t, false
		}
	}
	if why := inSystemSubtree(p); why != "" {
		return why, false
	}
	for _, t := range systemSubtrees {
		if manifest.IsAncestor(p, t) {
			return "it holds " + t, false
		}
	}
	if why, home := protectedHome(p); home {
		return why, false
	}
	return "", true
}

// inSystemSubtree says why p lies in a subtree the host manages
// (SystemSubtree), or "".
func inSystemSubtree(p string) string {
	switch t := SystemSubtree(p); t {
	case "":
		return ""
	case p:
		return "managed by the host"
	default:
		return "under " + t
	}
}

// VolumeRoot reports whether p may be a volume root (volume_root,
// --volume-root), under which each module's volumes land at
// VOLUME_ROOT/MODULE, and why not: a data root (/srv, /var/lib, …) or a
// directory that may be a module root (Root).
func VolumeRoot(p string) (why string, ok bool) {
	for _, d := range DataRoots() {
		if p == d {
			return "", true
		}
	}
	return Root(p)
}

// Ownable reports whether a module may own p as a directory or file,
// and why not (C2M006): p is not a host path (HostPath), and it lies
// below a data root outside the host's subtrees (DataRoot), in the
// module's /etc/MODULE (ModuleEtc), or in one of roots that is a valid
// Root.
func Ownable(p, module string, roots []string) (why string, ok bool) {
	if why, host := HostPath(p); host {
		return why, false
	}
	if why := inSystemSubtree(p); why != "" {
		return why, false
	}
	if why, home := protectedHome(p); home {
		return why, false
	}
	if DataRoot(p) {
		return "", true
	}
	if etc := ModuleEtc(module); etc != "" && under(p, etc) {
		return "", true
	}
	for _, r := range roots {
		if _, ok := Root(r); ok && under(p, r) {
			return "", true
		}
	}
	return outside, false
}

// outside is what Ownable says of a path outside every allowed place.
const outside = Outside

// Outside is what Ownable says of a path outside every place a module
// may own, which a roots: entry may make its own.
const Outside = "outside the places a module may own"
