package manifest

// Container is the container shape of a manifest: the compose service fields
// the mesh can carry, under their compose-spec names. Fields are written in
// the order they appear here; zero values are left out.
type Container struct {
	// Name is the compose service name.
	Name        string            `yaml:"container"`
	Image       string            `yaml:"image,omitempty"`
	Command     []string          `yaml:"command,omitempty"`
	Entrypoint  []string          `yaml:"entrypoint,omitempty"`
	WorkingDir  string            `yaml:"working_dir,omitempty"`
	User        string            `yaml:"user,omitempty"`
	Hostname    string            `yaml:"hostname,omitempty"`
	Environment map[string]string `yaml:"environment,omitempty"`
	Labels      map[string]string `yaml:"labels,omitempty"`
	Ports       []Port            `yaml:"ports,omitempty"`
	Volumes     []Volume          `yaml:"volumes,omitempty"`
	Tmpfs       []Tmpfs           `yaml:"tmpfs,omitempty"`
	Restart     string            `yaml:"restart,omitempty"`
	Healthcheck *Healthcheck      `yaml:"healthcheck,omitempty"`
	DependsOn   []Dependency      `yaml:"depends_on,omitempty"`
}

// Port is one published or exposed port, in compose-spec long syntax.
type Port struct {
	Name      string `yaml:"name,omitempty"`
	HostIP    string `yaml:"host_ip"`
	Published string `yaml:"published"`
	Target    uint32 `yaml:"target"`
	Protocol  string `yaml:"protocol"`
	AppProto  string `yaml:"app_protocol,omitempty"`
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
