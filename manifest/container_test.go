package manifest

import (
	"reflect"
	"strings"
	"testing"
)

// fullContainer sets every field of Container, to nested depth.
func fullContainer() *Container {
	return &Container{
		Name: "web", Image: "nginx:1.27", Platform: "linux/amd64", PullPolicy: "always",
		Command: []string{"nginx", "-g", "daemon off;"}, Entrypoint: []string{"/docker-entrypoint.sh"},
		WorkingDir: "/srv", User: "101:101", GroupAdd: []string{"audio"},
		Environment:    map[string]string{"B": "2", "A": "$literal", "EMPTY": ""},
		EnvCredentials: map[string]string{"TOKEN": "api_token"},
		Labels:         map[string]string{"z": "1", "a": "2"}, Annotations: map[string]string{"com.example": "x"},
		Ports:       []Port{{HostIP: "", Published: "80", Target: 80, Protocol: "tcp", Mode: "host"}},
		Expose:      []string{"8080", "9000-9010/udp"},
		Volumes:     []Volume{{Source: "/srv/web", Target: "/usr/share/nginx/html", ReadOnly: true}},
		Tmpfs:       []Tmpfs{{Target: "/run", Size: "65536", Mode: "1777"}},
		Devices:     []Device{{Source: "/dev/fuse", Target: "/dev/fuse", Permissions: "rwm"}, {Source: "nvidia.com/gpu=all"}},
		Secrets:     []FileRef{{Source: "db_password", Target: "/run/secrets/db_password", UID: "101", GID: "101", Mode: "0440"}},
		Configs:     []FileRef{{Source: "motd", Target: "/etc/motd", Mode: "0444", Content: "hello\nworld\n"}},
		Restart:     "unless-stopped",
		Healthcheck: &Healthcheck{Test: []string{"CMD", "true"}, Interval: "30s", Timeout: "5s", Retries: ptr(uint64(3)), StartPeriod: "1s", StartInterval: "2s", Disable: true},
		DependsOn:   []Dependency{{Service: "db", Condition: "service_healthy", Restart: true, Required: ptr(false)}},
		Hostname:    "web", Domainname: "example.org",
		ExtraHosts: []string{"db=10.0.0.2", "host.docker.internal=host-gateway"},
		DNS:        []string{"1.1.1.1"}, DNSSearch: []string{"example.org"}, DNSOpt: []string{"ndots:2"},
		MacAddress: "02:42:ac:11:00:02", NetworkMode: "bridge",
		Networks: map[string]Network{
			"front": {Aliases: []string{"www"}, Ipv4Address: "172.16.0.2", Ipv6Address: "fd00::2", LinkLocalIPs: []string{"169.254.0.2"},
				MacAddress: "02:42:ac:11:00:03", InterfaceName: "eth1", Priority: 10, GwPriority: -1, DriverOpts: map[string]string{"k": "v"},
				UseServiceNameAlias: ptr(false)},
			"back": {},
		},
		CapAdd: []string{"NET_ADMIN"}, CapDrop: []string{"ALL"}, Privileged: true, ReadOnly: true,
		SecurityOpt: []string{"no-new-privileges:true"}, Sysctls: map[string]string{"net.core.somaxconn": "1024"},
		Ulimits: map[string]Ulimit{"nofile": {Soft: 1024, Hard: 4096}, "nproc": {Soft: -1, Hard: -1}},
		Ipc:     "shareable", Pid: "host", Uts: "host", UsernsMode: "host", Cgroup: "private",
		Init: ptr(true), Umask: "0022", StopSignal: "SIGQUIT", StopGracePeriod: "1m30s",
		Logging:  &Logging{Driver: "json-file", Options: map[string]string{"max-size": "10m"}},
		MemLimit: 536870912, MemReservation: 268435456, MemswapLimit: 1073741824, ShmSize: 67108864,
		Cpus: "1.5", CPUShares: 512, Cpuset: "0-1", PidsLimit: -1, OomKillDisable: true, OomScoreAdj: -500,
		Deploy: &Deploy{Replicas: ptr(uint64(2)),
			Resources:     &Resources{Limits: &ResourceLimit{Cpus: "0.5", Memory: 1 << 30, Pids: 100}, Reservations: &ResourceLimit{Cpus: "0.25", Memory: 1 << 20}},
			RestartPolicy: &RestartPolicy{Condition: "on-failure", Delay: "5s", MaxAttempts: ptr(uint64(3)), Window: "2m0s"}},
		Tty: true, StdinOpen: true,
	}
}

// TestContainerEveryField checks that fullContainer sets every field, and
// that Decode(Encode(m)) gives it back.
func TestContainerEveryField(t *testing.T) {
	c := fullContainer()
	var unset []string
	v := reflect.ValueOf(c).Elem()
	for i := 0; i < v.NumField(); i++ {
		if v.Field(i).IsZero() {
			unset = append(unset, v.Type().Field(i).Name)
		}
	}
	if len(unset) > 0 {
		t.Fatalf("fullContainer leaves fields unset: %v", unset)
	}
	m := &Module{Version: 1, Module: "web", Resources: []Resource{{Kind: KindContainer, Container: c, Comment: "compose.yaml:3"}}}
	data, err := Encode(m)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`mode: "0440"`, `umask: "0022"`, `cpus: "1.5"`, "mem_limit: 536870912", "- {source: /dev/fuse, target: /dev/fuse, permissions: rwm}", "A: $literal"} {
		if !strings.Contains(string(data), want) {
			t.Errorf("encoded manifest lacks %q:\n%s", want, data)
		}
	}
	again, err := Encode(m)
	if err != nil || string(again) != string(data) {
		t.Fatalf("Encode is not deterministic")
	}
	got, err := Decode("m.yaml", data)
	if err != nil {
		t.Fatalf("Decode: %v\n%s", err, data)
	}
	clearPos(got)
	if !reflect.DeepEqual(got.Resources[0].Container, c) {
		t.Errorf("round trip differs:\n got %#v\nwant %#v\n%s", got.Resources[0].Container, c, data)
	}
}

func TestContainerDecodeErrors(t *testing.T) {
	for _, tc := range []struct{ yaml, want string }{
		{"mem_limit: 1g", `container "web": mem_limit must be an integer; found the string "1g"`},
		{"mem_limit: 99999999999999999999", "mem_limit must be an integer"},
		{"secrets: [{source: a, target: /a, mode: 0440}]", "is a YAML integer"},
		{"ulimits: {nofile: 5}", "ulimits.nofile must be a mapping"},
		{"networks: [front]", `container "web": networks must be a mapping`},
		{"devices: [{source: /dev/x, bogus: 1}]", `unknown key "bogus"`},
	} {
		doc := "version: 1\nmodule: m\nresources:\n  - container: web\n    " + tc.yaml + "\n"
		_, err := Decode("m.yaml", []byte(doc))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want it to contain %q", tc.yaml, err, tc.want)
		}
	}
}
