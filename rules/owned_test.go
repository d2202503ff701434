package rules

import (
	"testing"

	"github.com/compose2manifest/compose2manifest/manifest"
)

func TestOwnable(t *testing.T) {
	roots := []string{"/data/app", "/home/u/apps/app", "/etc/cron.daily"}
	for _, c := range []struct {
		path string
		ok   bool
	}{
		// The paths that gave root on the host.
		{"/etc/profile.d", false},
		{"/etc/profile.d/app.sh", false},
		{"/etc/cron.daily", false},
		{"/etc/cron.daily/app", false},
		{"/etc/docker", false},
		{"/etc/docker/daemon.json", false},
		{"/etc/rc.local", false},
		{"/home/u/.ssh/authorized_keys", false},
		{"/home/u/.ssh", false},
		{"/home/u/.bashrc", false},
		{"/home/u/bin/ls", false},
		{"/home/u", false},
		{"/root/.ssh", false},
		// The data roots themselves are the host's; below them is the module's.
		{"/srv", false},
		{"/srv/app", true},
		{"/opt", false},
		{"/opt/app", true},
		{"/var/lib", false},
		{"/var/lib/app", true},
		{"/var/cache", false},
		{"/var/cache/app", true},
		{"/var/log", false},
		{"/var/log/app", true},
		{"/var/spool", false},
		{"/var/spool/app", true},
		{"/run", false},
		{"/run/app", true},
		// The system subtrees inside them.
		{"/var/lib/docker", false},
		{"/var/lib/docker/volumes/x", false},
		{"/var/lib/docker-app", true},
		{"/var/lib/containerd", false},
		{"/var/lib/dpkg", false},
		{"/var/lib/dpkg/status", false},
		{"/var/lib/apt", false},
		{"/var/lib/rpm", false},
		{"/var/lib/systemd", false},
		{"/var/lib/systemd/linger/u", false},
		{"/var/cache/apt", false},
		{"/var/cache/apt/archives", false},
		{"/var/spool/cron", false},
		{"/var/spool/cron/crontabs/root", false},
		{"/var/spool/cronicle", true},
		{"/var/spool/mail", false},
		{"/var/spool/postfix", false},
		{"/run/systemd", false},
		{"/run/systemd/system", false},
		{"/run/dbus", false},
		{"/run/dbus/system_bus_socket", false},
		{"/run/docker.sock", false},
		{"/run/docker.sock.app", true},
		{"/run/user/1000", false},
		{"/var/log/journal", false},
		{"/var/log/wtmp", false},
		{"/opt/cni/bin", false},
		// /etc/MODULE, and nothing else in /etc.
		{"/etc/app", true},
		{"/etc/app/app.conf", true},
		{"/etc/app.d", false},
		{"/etc/other", false},
		{"/etc", false},
		{"/etc/passwd", false},
		// The roots, and what they do not cover.
		{"/data/app", true},
		{"/data/app/db", true},
		{"/data/other", false},
		{"/data", false},
		{"/home/u/apps/app/config", true},
		{"/home/u/apps", false},
		// Elsewhere.
		{"/usr/local/bin/app", false},
		{"/var/run/app", false},
		{"/var/www/app", false},
		{"/mnt/nas", false},
		{"/tmp/app", false},
		{"/", false},
	} {
		why, ok := Ownable(c.path, "app", roots)
		if ok != c.ok {
			t.Errorf("Ownable(%q) = %v (%s), want %v", c.path, ok, why, c.ok)
		}
		if !ok && why == "" {
			t.Errorf("Ownable(%q) refused without a reason", c.path)
		}
	}
}

func TestModuleEtc(t *testing.T) {
	for module, want := range map[string]string{
		"app": "/etc/app", "mail": "/etc/mail", "cron.daily": "", "docker": "", "ssh": "",
		"profile.d": "", "systemd": "", "sudoers.d": "", "alternatives": "", "": "", "..": "", "a/b": "",
	} {
		if got := ModuleEtc(module); got != want {
			t.Errorf("ModuleEtc(%q) = %q, want %q", module, got, want)
		}
	}
}

func TestRoot(t *testing.T) {
	for _, c := range []struct {
		path string
		ok   bool
	}{
		{"/data", true},
		{"/data/app", true},
		{"/mnt/tank/app", true},
		{"/media/usb/app", true},
		{"/home/u/apps/app", true},
		{"/var/www/app", true},
		{"/srv/app", true},
		{"/opt/app", true},
		{"/var/lib/app", true},
		{"/", false},
		{"/etc", false},
		{"/etc/app", false},
		{"/etc/cron.daily", false},
		{"/etc/profile.d", false},
		{"/etc/docker", false},
		{"/usr", false},
		{"/usr/local", false},
		{"/usr/local/app", false},
		{"/boot", false},
		{"/root", false},
		{"/root/app", false},
		{"/home", false},
		{"/home/u", false},
		{"/home/u/.ssh", false},
		{"/home/u/.config/app", false},
		{"/home/u/bin", false},
		{"/srv", false},
		{"/opt", false},
		{"/var", false},
		{"/var/lib", false},
		{"/run", false},
		{"/mnt", false},
		{"/tmp", false},
		{"/tmp/app", false},
		{"/var/tmp/app", false},
		{"/var/run/app", false},
		{"/var/mail", false},
		{"/var/backups", false},
		{"/var/lib/docker", false},
		{"/var/lib/docker/app", false},
		{"/var/spool/cron", false},
		{"/run/systemd", false},
		{"/proc/1", false},
		{"/dev/disk", false},
		{"/lib/modules", false},
		{"relative", false},
		{"/data/../etc", false},
	} {
		why, ok := Root(c.path)
		if ok != c.ok {
			t.Errorf("Root(%q) = %v (%s), want %v", c.path, ok, why, c.ok)
		}
	}
}

func TestVolumeRoot(t *testing.T) {
	for p, want := range map[string]bool{
		"/srv": true, "/var/lib": true, "/opt": true, "/run": true, "/var/cache": true, "/var/log": true,
		"/var/spool": true, "/data": true, "/srv/volumes": true, "/mnt/tank": true,
		"/": false, "/etc": false, "/usr": false, "/var": false, "/home": false, "/home/u": false,
		"/tmp": false, "/root": false, "/mnt": false, "/var/lib/docker": false, "/etc/cron.daily": false,
	} {
		if why, ok := VolumeRoot(p); ok != want {
			t.Errorf("VolumeRoot(%q) = %v (%s), want %v", p, ok, why, want)
		}
	}
}

func TestDataRoot(t *testing.T) {
	for p, want := range map[string]bool{
		"/srv/a": true, "/opt/a": true, "/var/lib/a": true, "/var/cache/a": true, "/var/log/a": true,
		"/var/spool/a": true, "/run/a": true, "/srv": false, "/var/lib/docker": false, "/var/lib/apt/lists": false,
		"/var/run/a": false, "/data/a": false, "/etc/a": false, "/srvx/a": false,
	} {
		if got := DataRoot(p); got != want {
			t.Errorf("DataRoot(%q) = %v, want %v", p, got, want)
		}
	}
}

func TestDuplicateNamesRelated(t *testing.T) {
	m := &manifest.Module{Module: "app", Resources: []manifest.Resource{
		{Kind: manifest.KindContainer, Container: &manifest.Container{Name: "web"}, Pos: manifest.Pos{File: "app.yaml", Line: 5}},
		{Kind: manifest.KindContainer, Container: &manifest.Container{Name: "web"}, Pos: manifest.Pos{File: "app.yaml", Line: 9}},
		{Kind: manifest.KindCredential, Name: "key", Pos: manifest.Pos{File: "app.yaml", Line: 12}},
		{Kind: manifest.KindCredential, Name: "key", Pos: manifest.Pos{File: "app.yaml", Line: 13}},
	}}
	var got []Diagnostic
	for _, d := range Run(All(), m) {
		if d.Rule == "C2M005" {
			got = append(got, d)
		}
	}
	if len(got) != 2 {
		t.Fatalf("got %d C2M005 diagnostics, want 2: %v", len(got), got)
	}
	for i, want := range []struct {
		line, first int
		service     string
	}{{9, 5, "web"}, {13, 12, ""}} {
		d := got[i]
		if d.Line != want.line || d.Service != want.service || d.Severity != Error ||
			len(d.Related) != 1 || d.Related[0].Line != want.first || d.Related[0].File != "app.yaml" {
			t.Errorf("diagnostic %d = %+v, want line %d, service %q, related app.yaml:%d", i, d, want.line, want.service, want.first)
		}
	}
}
