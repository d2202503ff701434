package project_test

import (
	"testing"

	"github.com/compose2manifest/compose2manifest/project"
)

func TestWellKnownHost(t *testing.T) {
	for p, want := range map[string]bool{
		"/etc/localtime": true, "/etc/timezone": true, "/var/run/docker.sock": true, "/run/docker.sock": true,
		"/proc": true, "/proc/1/ns": true, "/sys/fs/cgroup": true, "/dev/ttyUSB0": true, "/lib/modules": true,
		"/": false, "/etc": false, "/etc/nginx": false, "/devices": false, "/procfs": false, "/var/run": false,
	} {
		if got := project.WellKnownHost(p); got != want {
			t.Errorf("WellKnownHost(%q) = %v, want %v", p, got, want)
		}
	}
}
