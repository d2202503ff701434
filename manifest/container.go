package manifest

// Container is the container shape of a manifest: the compose service fields
// the mesh can carry, under their compose-spec names. Fields are written in
// the order they appear here; zero values are left out.
//
// Value forms: sizes (mem_limit, shm_size, deploy memory, …) are whole
// bytes, as YAML integers; durations are compose duration strings ("1m30s");
// CPU counts are decimal strings ("0.5"); file modes are quoted octal strings
// ("0440"). Maps are written with their keys sorted. Every value is literal:
// the mesh does no interpolation, so a compose "$$" escape is written as the
// single "$" the container receives.
type Container struct {
	// Name is the compose service name.
	Name       string       `yaml:"container"`
	Image      string       `yaml:"image,omitempty"`
	Platform   string       `yaml:"platform,omitempty"`
	PullPolicy string       `yaml:"pull_policy,omitempty"`
	Command    ShellCommand `yaml:"command,omitempty"`
	Entrypoint ShellCommand `yaml:"entrypoint,omitempty"`
	WorkingDir string       `yaml:"working_dir,omitempty"`
	User       string       `yaml:"user,omitempty"`
	GroupAdd   []string     `yaml:"group_add,omitempty"`
	// Environment holds env_file values and environment, resolved as
	// compose does (environment wins). Values are carried as written, also
	// when they look like secrets (C2M015 reports those).
	Environment map[string]string `yaml:"environment,omitempty"`
	// EnvCredentials maps a variable of the environment to the credential
	// resource whose content the host sets it to when it starts the
	// container; the value is never in the manifest. It is written in
	// environment, as VARIABLE: {credential: NAME} (an addition to format
	// version 1). A variable is in Environment or here, not both.
	EnvCredentials map[string]string `yaml:"-"`
	// Labels holds label_file values and labels, resolved as compose does.
	Labels      map[string]string `yaml:"labels,omitempty"`
	Annotations map[string]string `yaml:"annotations,omitempty"`
	Ports       []Port            `yaml:"ports,omitempty"`
	// Expose lists container ports (or ranges) as strings: "8080",
	// "9000-9010/udp".
	Expose  []string `yaml:"expose,omitempty"`
	Volumes []Volume `yaml:"volumes,omitempty"`
	Tmpfs   []Tmpfs  `yaml:"tmpfs,omitempty"`
	Devices []Device `yaml:"devices,omitempty"`
	// Secrets are the credentials delivered into the container; each
	// Source names a credential resource of the module.
	Secrets []FileRef `yaml:"secrets,omitempty"`
	// Configs are compose configs with inline content (content: or
	// environment:). A config with a file: is a read-only volume of a
	// declared file instead.
	Configs     []FileRef    `yaml:"configs,omitempty"`
	Restart     string       `yaml:"restart,omitempty"`
	Healthcheck *Healthcheck `yaml:"healthcheck,omitempty"`
	DependsOn   []Dependency `yaml:"depends_on,omitempty"`
	Hostname    string       `yaml:"hostname,omitempty"`
	Domainname  string       `yaml:"domainname,omitempty"`
	// ExtraHosts are "HOST=IP" entries, sorted.
	ExtraHosts  []string `yaml:"extra_hosts,omitempty"`
	DNS         []string `yaml:"dns,omitempty"`
	DNSSearch   []string `yaml:"dns_search,omitempty"`
	DNSOpt      []string `yaml:"dns_opt,omitempty"`
	MacAddress  string   `yaml:"mac_address,omitempty"`
	NetworkMode string   `yaml:"network_mode,omitempty"`
	// Networks are the networks the container joins, by compose network
	// name.
	Networks    map[string]Network `yaml:"networks,omitempty"`
	CapAdd      []string           `yaml:"cap_add,omitempty"`
	CapDrop     []string           `yaml:"cap_drop,omitempty"`
	Privileged  bool               `yaml:"privileged,omitempty"`
	ReadOnly    bool               `yaml:"read_only,omitempty"`
	SecurityOpt []string           `yaml:"security_opt,omitempty"`
	Sysctls     map[string]string  `yaml:"sysctls,omitempty"`
	Ulimits     map[string]Ulimit  `yaml:"ulimits,omitempty"`
	Ipc         string             `yaml:"ipc,omitempty"`
	Pid         string             `yaml:"pid,omitempty"`
	Uts         string             `yaml:"uts,omitempty"`
	UsernsMode  string             `yaml:"userns_mode,omitempty"`
	Cgroup      string             `yaml:"cgroup,omitempty"`
	Init        *bool              `yaml:"init,omitempty"`
	// Umask is a quoted octal string ("0022").
	Umask string `yaml:"umask,omitempty"`
	// StopSignal is a signal name ("SIGQUIT").
	StopSignal string `yaml:"stop_signal,omitempty"`
	// StopGracePeriod is a duration string.
	StopGracePeriod string   `yaml:"stop_grace_period,omitempty"`
	Logging         *Logging `yaml:"logging,omitempty"`
	// MemLimit, MemReservation, MemswapLimit and ShmSize are bytes.
	MemLimit       int64 `yaml:"mem_limit,omitempty"`
	MemReservation int64 `yaml:"mem_reservation,omitempty"`
	MemswapLimit   int64 `yaml:"memswap_limit,omitempty"`
	ShmSize        int64 `yaml:"shm_size,omitempty"`
	// Cpus is a decimal number of CPUs, as a string ("1.5").
	Cpus      string `yaml:"cpus,omitempty"`
	CPUShares int64  `yaml:"cpu_shares,omitempty"`
	Cpuset    string `yaml:"cpuset,omitempty"`
	// PidsLimit is the most processes; -1 is unlimited.
	PidsLimit      int64   `yaml:"pids_limit,omitempty"`
	OomKillDisable bool    `yaml:"oom_kill_disable,omitempty"`
	OomScoreAdj    int64   `yaml:"oom_score_adj,omitempty"`
	Deploy         *Deploy `yaml:"deploy,omitempty"`
	Tty            bool    `yaml:"tty,omitempty"`
	StdinOpen      bool    `yaml:"stdin_open,omitempty"`
}

// Port is one published or exposed port, in compose-spec long syntax.
type Port struct {
	Name      string `yaml:"name,omitempty"`
	HostIP    string `yaml:"host_ip"`
	Published string `yaml:"published"`
	Target    uint32 `yaml:"target"`
	Protocol  string `yaml:"protocol"`
	AppProto  string `yaml:"app_protocol,omitempty"`
	// Mode is "host" for a port published on the host's interface
	// directly (compose's long syntax mode: host); the default,
	// ingress, is not written.
	Mode string `yaml:"mode,omitempty"`
}

// Volume is one mount of a declared host path into the container.
type Volume struct {
	// Source is a declared directory, file or host path, exactly.
	Source   string `yaml:"source"`
	Target   string `yaml:"target"`
	ReadOnly bool   `yaml:"read_only,omitempty"`
}

// Tmpfs is one tmpfs mount; it needs no declaration.
type Tmpfs struct {
	Target string `yaml:"target"`
	// Size is as compose writes it ("64m") or in bytes.
	Size string `yaml:"size,omitempty"`
	// Mode is the octal mode of the mount point, as a string ("1777").
	Mode    string `yaml:"mode,omitempty"`
	Options string `yaml:"options,omitempty"`
}

// Device is one device the container gets. A Source that is a host path
// (under /dev) is also a host resource of the module: the module uses the
// device node and never creates or owns it. A CDI name
// ("vendor.com/class=name") is carried as written.
type Device struct {
	Source      string `yaml:"source"`
	Target      string `yaml:"target,omitempty"`
	Permissions string `yaml:"permissions,omitempty"`
}

// FileRef is one secret or config delivered into the container as a file.
type FileRef struct {
	// Source names the compose secret or config.
	Source string `yaml:"source"`
	// Target is the path inside the container: compose's default
	// (/run/secrets/NAME for a secret, /NAME for a config) is filled in.
	Target string `yaml:"target"`
	UID    string `yaml:"uid,omitempty"`
	GID    string `yaml:"gid,omitempty"`
	// Mode is a quoted octal string ("0440").
	Mode string `yaml:"mode,omitempty"`
	// Content is the inline content of a config; never set for a secret,
	// whose content is never in a manifest.
	Content string `yaml:"content,omitempty"`
}

// Healthcheck is a container health check. Durations are Go/compose
// duration strings ("30s").
type Healthcheck struct {
	Test          []string `yaml:"test,omitempty"`
	Interval      string   `yaml:"interval,omitempty"`
	Timeout       string   `yaml:"timeout,omitempty"`
	Retries       *uint64  `yaml:"retries,omitempty"`
	StartPeriod   string   `yaml:"start_period,omitempty"`
	StartInterval string   `yaml:"start_interval,omitempty"`
	Disable       bool     `yaml:"disable,omitempty"`
}

// Dependency is one entry of depends_on.
type Dependency struct {
	Service   string `yaml:"service"`
	Condition string `yaml:"condition,omitempty"`
	Restart   bool   `yaml:"restart,omitempty"`
	Required  *bool  `yaml:"required,omitempty"`
}

// Network is how the container joins one network.
type Network struct {
	Aliases             []string          `yaml:"aliases,omitempty"`
	Ipv4Address         string            `yaml:"ipv4_address,omitempty"`
	Ipv6Address         string            `yaml:"ipv6_address,omitempty"`
	LinkLocalIPs        []string          `yaml:"link_local_ips,omitempty"`
	MacAddress          string            `yaml:"mac_address,omitempty"`
	InterfaceName       string            `yaml:"interface_name,omitempty"`
	Priority            int64             `yaml:"priority,omitempty"`
	GwPriority          int64             `yaml:"gw_priority,omitempty"`
	DriverOpts          map[string]string `yaml:"driver_opts,omitempty"`
	UseServiceNameAlias *bool             `yaml:"use_service_name_alias,omitempty"`
}

// Ulimit is one resource limit. Compose's single value is written as equal
// soft and hard limits.
type Ulimit struct {
	Soft int64 `yaml:"soft"`
	Hard int64 `yaml:"hard"`
}

// Logging is the container's log driver and its options.
type Logging struct {
	Driver  string            `yaml:"driver,omitempty"`
	Options map[string]string `yaml:"options,omitempty"`
}

// Deploy is the part of compose's deploy the mesh carries: replicas,
// resources and the restart policy.
type Deploy struct {
	Replicas      *uint64        `yaml:"replicas,omitempty"`
	Resources     *Resources     `yaml:"resources,omitempty"`
	RestartPolicy *RestartPolicy `yaml:"restart_policy,omitempty"`
}

// Resources are the container's resource limits and reservations.
type Resources struct {
	Limits       *ResourceLimit `yaml:"limits,omitempty"`
	Reservations *ResourceLimit `yaml:"reservations,omitempty"`
}

// ResourceLimit is one set of limits or reservations. Memory is bytes; Cpus
// is a decimal string.
type ResourceLimit struct {
	Cpus   string `yaml:"cpus,omitempty"`
	Memory int64  `yaml:"memory,omitempty"`
	Pids   int64  `yaml:"pids,omitempty"`
}

// RestartPolicy is deploy.restart_policy; durations are strings.
type RestartPolicy struct {
	Condition   string  `yaml:"condition,omitempty"`
	Delay       string  `yaml:"delay,omitempty"`
	MaxAttempts *uint64 `yaml:"max_attempts,omitempty"`
	Window      string  `yaml:"window,omitempty"`
}

// ShellCommand is a command or entrypoint as an argument list. Nil means
// the image's own; an empty, non-nil list clears it (compose's
// `command: []`) and is written as [].
type ShellCommand []string

// IsZero reports whether c is nil, so that only an absent command is left
// out of the manifest.
func (c ShellCommand) IsZero() bool { return c == nil }
