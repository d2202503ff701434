package convert

import (
	"sort"
	"strings"
)

// Field is the outcome of one compose-spec attribute: carried by the
// manifest, or not carried with the reason why. Every attribute compose-go's
// schema knows has exactly one Field (TestFieldCoverage keeps it so).
type Field struct {
	// Section is the top-level section the attribute belongs to:
	// "services", "volumes", "networks", "secrets" or "configs".
	Section string
	// Name is the attribute's compose-spec name inside one entry of the
	// section; a nested attribute is dotted: "deploy.placement".
	Name string
	// Carried says whether the manifest carries it.
	Carried bool
	// Partly marks an attribute only some of whose attributes are carried;
	// each of those has a Field of its own.
	Partly bool
	// Reason says, for a carried attribute, how it is carried when that is
	// not under its own name; for one not carried, why not. One line.
	Reason string
}

// Fields returns the outcome of every compose-spec attribute of a service,
// a top-level volume, a top-level network, a secret and a config, sorted
// by section and name.
func Fields() []Field {
	carried := func(name, how string) Field {
		return Field{Section: "services", Name: name, Carried: true, Reason: how}
	}
	not := func(name, why string) Field { return Field{Section: "services", Name: name, Reason: why} }
	partly := func(name, how string) Field {
		return Field{Section: "services", Name: name, Carried: true, Partly: true, Reason: how}
	}
	top := func(section, name string, isCarried bool, reason string) Field {
		return Field{Section: section, Name: name, Carried: isCarried, Reason: reason}
	}
	out := []Field{
		carried("annotations", ""),
		not("attach", "whether docker compose up shows the service's logs; nothing changes at run time"),
		not("blkio_config", "block-IO weights and limits name host block devices the mesh does not manage"),
		not("build", "the mesh runs images, it does not build them: give image: (or images: in the declarations)"),
		carried("cap_add", ""),
		carried("cap_drop", ""),
		carried("cgroup", ""),
		not("cgroup_parent", "the mesh places containers in its own cgroup tree"),
		carried("command", ""),
		carried("configs", "inline content in configs; a file: config as a read-only volume of a declared file"),
		not("container_name", "the mesh names containers itself"),
		not("cpu_count", "Windows containers only"),
		not("cpu_percent", "Windows containers only"),
		not("cpu_period", "CFS scheduler tuning; state the limit as cpus"),
		not("cpu_quota", "CFS scheduler tuning; state the limit as cpus"),
		not("cpu_rt_period", "real-time scheduler tuning the mesh does not grant"),
		not("cpu_rt_runtime", "real-time scheduler tuning the mesh does not grant"),
		carried("cpu_shares", ""),
		carried("cpus", ""),
		carried("cpuset", ""),
		not("credential_spec", "Windows gMSA credentials"),
		carried("depends_on", "with condition, restart and required; containers are written after what they depend on"),
		partly("deploy", "replicas, resources and restart_policy"),
		not("deploy.endpoint_mode", "Swarm service discovery; the mesh has none"),
		not("deploy.labels", "Swarm service labels; container labels go in labels"),
		not("deploy.mode", "Swarm scheduling (global or replicated jobs)"),
		not("deploy.placement", "Swarm node placement; a module runs on the host it is applied to"),
		carried("deploy.replicas", ""),
		partly("deploy.resources", "limits and reservations of cpus, memory and pids"),
		partly("deploy.resources.limits", ""),
		carried("deploy.resources.limits.cpus", ""),
		carried("deploy.resources.limits.memory", "bytes"),
		carried("deploy.resources.limits.pids", ""),
		partly("deploy.resources.reservations", ""),
		carried("deploy.resources.reservations.cpus", ""),
		not("deploy.resources.reservations.devices", "GPU and device requests need the host's runtime hooks; list device nodes under devices"),
		not("deploy.resources.reservations.generic_resources", "Swarm generic resources"),
		carried("deploy.resources.reservations.memory", "bytes"),
		carried("deploy.restart_policy", ""),
		not("deploy.rollback_config", "Swarm rolling updates; the mesh replaces a module's containers itself"),
		not("deploy.update_config", "Swarm rolling updates; the mesh replaces a module's containers itself"),
		not("develop", "docker compose watch, a development workflow"),
		not("device_cgroup_rules", "raw cgroup device rules; list the device nodes under devices"),
		carried("devices", "each host device node is also a host resource"),
		carried("dns", ""),
		carried("dns_opt", ""),
		carried("dns_search", ""),
		carried("domainname", ""),
		carried("entrypoint", ""),
		carried("env_file", "resolved into environment"),
		carried("environment", "literal values; secret-looking ones are refused (C2M015) unless delivered as credentials or acknowledged"),
		carried("expose", ""),
		carried("extends", "resolved by the loader"),
		not("external_links", "links to containers outside the project; reach them over a shared network"),
		carried("extra_hosts", "as sorted HOST=IP entries"),
		not("gpus", "GPU requests need the host's runtime hooks; list device nodes under devices"),
		carried("group_add", ""),
		carried("healthcheck", ""),
		carried("hostname", ""),
		carried("image", ""),
		carried("init", ""),
		carried("ipc", ""),
		not("isolation", "Windows container isolation"),
		carried("label_file", "resolved into labels"),
		carried("labels", ""),
		not("links", "legacy container links; services reach each other by name on shared networks"),
		carried("logging", ""),
		carried("mac_address", ""),
		carried("mem_limit", "bytes"),
		carried("mem_reservation", "bytes"),
		not("mem_swappiness", "kernel swap tuning the mesh does not grant"),
		carried("memswap_limit", "bytes"),
		not("models", "Docker Model Runner bindings, not a container"),
		carried("network_mode", ""),
		carried("networks", "names, aliases and addresses"),
		carried("oom_kill_disable", ""),
		carried("oom_score_adj", ""),
		carried("pid", ""),
		carried("pids_limit", ""),
		carried("platform", ""),
		carried("ports", "long syntax; mode only when host (ingress, every port's default, is not written)"),
		not("post_start", "lifecycle hooks the mesh does not run"),
		not("pre_start", "lifecycle hooks the mesh does not run"),
		not("pre_stop", "lifecycle hooks the mesh does not run"),
		carried("privileged", ""),
		carried("profiles", "decide which services run; a service left out is reported (C2M019)"),
		not("provider", "a service delegated to a provider plugin, not a container"),
		carried("pull_policy", ""),
		not("pull_refresh_after", "when to pull again is the mesh's own policy"),
		carried("read_only", ""),
		carried("restart", ""),
		not("runtime", "the mesh chooses the OCI runtime"),
		carried("scale", "as deploy.replicas"),
		carried("secrets", "credential resources; the content is never in the manifest"),
		carried("security_opt", ""),
		carried("shm_size", "bytes"),
		carried("stdin_open", ""),
		carried("stop_grace_period", ""),
		carried("stop_signal", ""),
		not("storage_opt", "storage-driver options of the Docker daemon"),
		carried("sysctls", ""),
		carried("tmpfs", ""),
		carried("tty", ""),
		carried("ulimits", "as soft and hard limits"),
		not("use_api_socket", "hands the container the Docker API and its credentials; mount the socket as a declared host path instead"),
		carried("user", ""),
		carried("userns_mode", ""),
		carried("uts", ""),
		carried("volumes", "each host source needs a declaration"),
		carried("volumes_from", "as the service's own mounts: each volume and bind of the services it names, at the same target (read-only with :ro); container:NAME is refused (C2M010), and so is a tmpfs volume or an image VOLUME acknowledged disposable, which the containers would share"),
		carried("working_dir", ""),

		top("volumes", "driver", true, "only the local driver; others are refused (C2M010)"),
		top("volumes", "driver_opts", true, "a local bind (type: none, o: bind, device: PATH), or a tmpfs (type: tmpfs) mounted as the container's tmpfs; others are refused (C2M010)"),
		top("volumes", "external", true, "declared like any named volume"),
		top("volumes", "labels", false, "Docker volume labels; a declared directory has none"),
		top("volumes", "name", true, "names the legacy Docker volume in the declaration's comment"),

		top("networks", "attachable", false, "lets standalone containers join a Docker network; the manifest's networks are the module's own, named only"),
		top("networks", "driver", false, "the Docker network driver; the manifest's networks are the module's own, named only"),
		top("networks", "driver_opts", false, "options of the Docker network driver; the manifest's networks are the module's own, named only"),
		top("networks", "enable_ipv4", false, "the Docker network's address families; the manifest's networks are the module's own, named only"),
		top("networks", "enable_ipv6", false, "the Docker network's address families; the manifest's networks are the module's own, named only"),
		top("networks", "external", false, "a network made outside the project (shared with other projects, such as a proxy's); the manifest's networks are the module's own, named only"),
		top("networks", "internal", false, "a Docker network without outside access; the manifest's networks are the module's own, named only"),
		top("networks", "ipam", false, "the Docker network's subnets and gateways; the manifest's networks are the module's own, named only"),
		top("networks", "labels", false, "Docker network labels; the manifest's networks are the module's own, named only"),
		top("networks", "name", false, "the Docker network's name (with external, another project's network); the manifest names the network by its compose key only"),

		top("secrets", "driver", false, "the mesh delivers credentials itself"),
		top("secrets", "driver_opts", false, "the mesh delivers credentials itself"),
		top("secrets", "environment", true, "a credential resource; the variable is named, its value is never read"),
		top("secrets", "external", true, "a credential resource"),
		top("secrets", "file", true, "a credential resource; the file is named, never read"),
		top("secrets", "labels", false, "the mesh delivers credentials itself"),
		top("secrets", "name", true, "named in the credential's comment"),
		top("secrets", "template_driver", false, "the mesh delivers credentials itself; no templating"),

		top("configs", "content", true, "carried inline in the container's configs"),
		top("configs", "environment", true, "its value at conversion carried inline in the container's configs"),
		top("configs", "external", false, "a config kept in Swarm; the mesh has no config store"),
		top("configs", "file", true, "a read-only volume of a declared file"),
		top("configs", "labels", false, "Swarm config labels"),
		top("configs", "name", false, "the Swarm name of the config; the mesh needs none"),
		top("configs", "template_driver", false, "no templating: the content is carried as written"),
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Section != out[j].Section {
			return sectionOrder(out[i].Section) < sectionOrder(out[j].Section)
		}
		return out[i].Name < out[j].Name
	})
	return out
}

func sectionOrder(s string) int {
	return strings.Index("services volumes networks secrets configs", s)
}

// fieldIndex maps "SECTION NAME" to the outcome of every attribute of
// Fields, for lookups in a loop.
type fieldIndex map[string]Field

// newFieldIndex builds the index of Fields.
func newFieldIndex() fieldIndex {
	idx := fieldIndex{}
	for _, f := range Fields() {
		idx[f.Section+" "+f.Name] = f
	}
	return idx
}

// lookup returns the outcome of attribute name (dotted) of section.
func (idx fieldIndex) lookup(section, name string) (Field, bool) {
	f, ok := idx[section+" "+name]
	return f, ok
}

// lookupField returns the outcome of attribute name (dotted) of section.
func lookupField(section, name string) (Field, bool) {
	for _, f := range Fields() {
		if f.Section == section && f.Name == name {
			return f, true
		}
	}
	return Field{}, false
}

// unknownAttribute is the reason given for an attribute the
// compose-spec schema this converter knows does not have.
const unknownAttribute = "not an attribute of the compose specification this converter knows"

// NotCarried returns the reason the manifest does not carry the service
// attribute name (dotted for a nested one, such as "deploy.placement"),
// and whether it is one it does not carry. An attribute compose-spec does
// not know is not carried either.
func NotCarried(name string) (reason string, ok bool) {
	f, known := lookupField("services", name)
	switch {
	case !known:
		return unknownAttribute, true
	case f.Carried:
		return "", false
	}
	return f.Reason, true
}
