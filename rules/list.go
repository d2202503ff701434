package rules

import (
	"fmt"
	"maps"
	"path"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/compose2manifest/compose2manifest/declare"
	"github.com/compose2manifest/compose2manifest/manifest"
	"github.com/compose2manifest/compose2manifest/project"
)

// IDs returns the ID of every rule, in ID order.
func IDs() []string {
	var out []string
	for _, r := range All() {
		out = append(out, r.ID)
	}
	return out
}

// All returns every rule, in ID order. Each call returns new values, so a
// caller may change one (its Severity, say) without affecting others.
func All() []*Rule {
	return []*Rule{
		{
			ID:           "C2M001",
			Title:        "a volume's host source has no declaration",
			Severity:     Error,
			Check:        checkUndeclaredSource,
			CheckProject: checkUndeclared,
			Doc: `Every source of a container volume must be a declared directory, file
or host path, exactly. A declared ancestor does not cover a child: the
container runtime would still create the missing child as root with a
mode nobody chose, outside the rule that keeps a module's data.

Declare the source in compose2manifest.yaml (binds:, volumes: or
anonymous:) with owner, mode and intent, or as kind: host for a path the
module uses but does not own, and convert again.`,
		},
		{
			ID:       "C2M002",
			Title:    "a declaration lacks owner, mode or intent, or one is invalid",
			Severity: Error,
			Check:    checkIncomplete,
			Doc: `A declared directory or file needs an owner ("USER:GROUP", both parts),
a mode (a quoted string of 3 or 4 octal digits, such as "0750"; a bare
YAML integer is refused because YAML readers disagree on what 0750 means)
and an intent (state, content, config, logs, cache or runtime).

Give the missing or invalid value in the declaration.`,
		},
		{
			ID:       "C2M003",
			Title:    "a declared path comes before its declared ancestor (not parent-first)",
			Severity: Error,
			Check:    checkParentFirst,
			Doc: `The host applies resources in the order written and does not sort. A
path declared before its ancestor would be created by the host as root
0755 first, and the ancestor's owner and mode applied only afterwards.

Move the ancestor's declaration above the child's (convert writes
parent-first order by itself; regenerate the manifest).`,
		},
		{
			ID:           "C2M004",
			Title:        "a file mount declared as a directory or the reverse",
			Severity:     Error,
			Check:        checkFileKind,
			CheckProject: checkKindConflict,
			Doc: `A bind source that is a regular file must be declared kind: file, and a
directory must not be: the host would create the wrong kind of path and
the container runtime would then fail to mount it ("not a directory").
A declared file cannot have declared paths below it.

Where a relative bind source is not in the checkout, or the source is
absolute or in a home directory (~), which no checkout shows, and no kind
is declared, docker would create a directory there; when the source's or
the target's last element has a file name's extension (nginx.conf,
config.yml, /etc/app/app.conf, ~/certs/site.pem: a dot not at the
start, then 1 to 8 letters and digits with at least one letter, other
than .d), that would break a file mount, so the converter does not guess.
(A path of the host's, such as the Docker socket, is kind host: C2M006.)

Set kind: file (or remove it) on the declaration so it matches what the
source is; for a source not in the checkout, set kind: file or kind:
directory.`,
			CheckAgainst: checkKindAgainst,
		},
		{
			ID:           "C2M005",
			Title:        "a path, container, credential or mount target declared twice, or a path by two modules",
			Severity:     Error,
			Also:         Warning,
			Check:        checkDuplicate,
			CheckSet:     checkDuplicateSet,
			CheckProject: checkProjectPaths,
			Doc: `A host path has one owner, one mode and one intent, owned by one module.
Two declarations of it disagree or are redundant; two modules owning it
would each remove or chown what the other keeps. A module's containers
and its credentials are known by name: two containers, or two
credentials, with one name would replace each other. A container with two
mounts at one target is one docker refuses to create. (A config or secret
with a file: at the target of a volume of its service is not that:
docker compose mounts the volume there and not the file, and so does
convert, with a warning.) In convert, two
named volumes that name: makes one Docker volume would be two host paths
of what docker mounts as one, and so would a bind inside another bind (or
the same directory through a symbolic link in the checkout) that does not
land inside the other's place; and the converse, a source docker keeps
apart (a named volume, another bind) given a place inside another
source's host directory, where the containers mounting that directory
would see and could delete its data. A named volume declared external
(made outside the project, perhaps mounted by other projects too) becomes
a directory the module owns: a warning, since only a batch of every
project sharing it can tell. Across modules (a batch, or check of their
manifests, which record each origin as legacy: in a comment), two
modules each owning a copy of one Docker volume (external, or one name:)
or one absolute host directory, or one a copy of a directory inside the
other's (/mnt/dl/sub and /mnt/dl), would split what the projects share;
a batch and check --against take the checkout's layout for the legacy
host's, so a relative bind (../common beside two projects, ../a/media
inside another) counts by where it lies in the checkout.

Declare the path, container or credential once. If two modules share data, let one own it and the
other name it as kind: host; that is a warning, which says the second
module depends on the first.`,
		},
		{
			ID:       "C2M006",
			Title:    "a module declares a system path it must not own",
			Severity: Error,
			Check:    checkSystemPath,
			Doc: `A module may own (declare as a directory or file) only paths in places
meant for a service's data, an allowlist: below the data roots of the
Filesystem Hierarchy Standard (/srv, /opt, /var/lib, /var/cache,
/var/log, /var/spool, /run), less the host's own subtrees in them (the
container runtimes' and package managers' state such as
/var/lib/docker, /var/lib/containerd, /var/lib/dpkg, /var/lib/apt,
/var/cache/apt; cron's and the mail system's spools such as
/var/spool/cron, /var/spool/mail; system daemons' sockets and state
such as /run/systemd, /run/dbus, /run/docker.sock, /var/lib/systemd;
the journal and the login records); in /etc/MODULE, its own
configuration directory, unless that is the host's (/etc/ssh,
/etc/cron.daily, /etc/docker, …); or in one of the module's roots, the
manifest's roots: (its host_project_directory, its VOLUME_ROOT/MODULE,
and the declarations' roots:). Everything else is the host's: /, /etc,
/usr, /var, /home and the other system directories, /etc/profile.d,
/etc/cron.daily, /etc/rc.local, a user's home and its dot files
(~/.ssh/authorized_keys), the Docker socket, /proc, /sys, /dev. A
module that owns one would chown and chmod it as it says (1000:1000
0777 on /etc/cron.daily gives root to anyone in group 1000), and try to
remove it when the module goes away. A root may not be such a path
either, nor lie in or hold /etc, /usr, /boot, /tmp, /var/run, /var/mail
or a system subtree, nor be a home directory or a dot entry in one.

Use kind: host for a path the module only uses (a socket, a device,
/etc/localtime, a user's file); put the module's own data below /srv,
/opt, /var/lib, /var/cache, /var/log, /var/spool or /run, or in
/etc/MODULE; or name a directory of the module's own (/data/MODULE)
under roots: in the declarations.`,
		},
		{
			ID:           "C2M007",
			Title:        "a compose field the manifest cannot carry, not acknowledged",
			Severity:     Warning,
			Also:         Error,
			CheckProject: checkNotCarried,
			Doc: `The container shape of a manifest cannot carry this compose field, so
the converted service would run differently. It is never dropped
silently: convert warns, naming the service, the field and the reason it
is not carried (the table is in docs/fields.md), and check
--against fails on it. A nested field is named by its path
(deploy.placement); a field of a top-level volume, network, secret or config by
its section and name (volume data: field labels). A job (top-level
jobs:, a container docker compose runs to completion when triggered) is
not carried at all: the mesh runs no jobs, and the finding names what
the job mounts, since nothing in the manifest declares that data.

Carry the behaviour another way, or list the field under acknowledge:
as SERVICE.FIELD, *.FIELD, SERVICE.deploy.FIELD, for a top-level entry
SECTION.NAME.FIELD (volumes.data.labels), or for a job jobs.NAME, to say
it is knowingly left behind.`,
			CheckAgainst: checkUncarriedAgainst,
		},
		{
			ID:       "C2M008",
			Title:    "the manifest is stale: a source's sha256 differs from the compose file's",
			Severity: Error,
			Doc: `The manifest records the sha256 of every file it was made from. One of
them has changed since, so the manifest may no longer match the project.
Given folders of manifests, check --against also reports each compose
project under ROOT that none of them was made from (a new project, a
deleted manifest, a project that no longer converts): the set of
manifests is stale.

Convert the project again and commit the new manifest.`,
			CheckAgainst: checkStaleAgainst,
		},
		{
			ID:           "C2M009",
			Title:        "a declaration key or survey entry matches nothing in the compose project",
			Severity:     Error,
			CheckProject: checkUnmatched,
			Doc: `Every key of the declarations must name a bind source, named volume,
anonymous volume, service field or image of the compose project, across
all profiles. A key that matches nothing is usually a typo, and a typo
must not pass silently: the source it meant stays undeclared. A volumes:
key for a named volume the local driver makes a tmpfs (driver_opts type:
tmpfs) is reported as such: the volume is a tmpfs in each container, with
no host path to declare; so is one for a named volume whose driver_opts
make it a bind (type: none, o: bind, device: PATH), which is declared
under binds: by PATH. So with an entry of the legacy host's survey
(convert --survey): one for a source the project does not mount is a
survey of other compose files or profiles, or one made before they
changed; its facts would be used nowhere, and the data it found would be
left where it is, which nothing converted from the project declares or
copies.

Correct the key so it names the source as the compose file writes it, or
delete it. For a survey entry, survey the legacy host again with the
project as it is now (compose2manifest survey), or convert with the
compose files and profiles the survey was made for; where the data it
found is still needed, mount it.`,
		},
		{
			ID:           "C2M010",
			Title:        "a volume kind the mesh cannot express",
			Severity:     Error,
			Check:        checkRelativeTarget,
			CheckProject: checkUnsupportedMount,
			Doc: `The mesh mounts declared host paths and tmpfs only. Windows named pipes
(npipe), cluster volumes, image volumes, volume drivers other than local,
and driver_opts other than a local bind (type: none, o: bind, device:
PATH) or a tmpfs (type: tmpfs) have no equivalent. Nor does a tmpfs
volume mounted twice (by two services, or at two targets): docker mounts
one tmpfs and shares it, while the manifest's tmpfs is one container's
own. Nor does an anonymous volume of a service with more than one
replica (deploy.replicas, scale): docker gives each replica its own,
while the manifest's declared directory would be mounted into all. Nor
does a mount at a target that is not an absolute path, which docker
refuses (a one-letter volume name, w:/data:ro, reads as a Windows path).

Replace the volume with a bind of a declared host path (for a shared
tmpfs volume, remove its driver_opts and declare it with intent runtime;
for a replicated service, a named volume shared knowingly), or leave the
service out of the module.`,
		},
		{
			ID:       "C2M011",
			Title:    "a declared path's parent is neither declared nor a standard system directory",
			Severity: Warning,
			Check:    checkUndeclaredParent,
			Doc: `The host creates a missing parent as root 0755, which may be more open
or more closed than the module wants, and the parent falls outside the
rule that keeps a module's data.

Declare the parent directory too, with its owner, mode and intent
(under directories: in compose2manifest.yaml).`,
		},
		{
			ID:           "C2M012",
			Title:        "a volume option the manifest cannot carry",
			Severity:     Error,
			Also:         Warning,
			CheckProject: checkMountOptions,
			Doc: `Volume options such as :U (chown), :z and :Z (SELinux relabel), bind
propagation, nocopy and subpath change how the runtime mounts the path,
and the manifest's volume shape cannot express them. Dropping one
silently would change ownership, labels or visibility.

The consistency options (:cached, :delegated, :consistent, and the long
syntax's consistency:) are no-ops on Linux: docker ignores them. They
are carried as nothing, and one warning per project says so.

A mode written as a plain integer whose digits read as octal too, in a
long-syntax tmpfs (tmpfs: {mode: 755}) or a service's secret, config or
build secret (mode: 440), is a warning naming both readings: docker
compose reads the integer as decimal, so 755 is octal 1363 and 440 is
octal 0670, and the manifest carries that ("1363", "0670") because it is
what docker compose reads.

An option that changes no owner or mode (z, Z, bind propagation, nocopy,
a volume mount's labels) acknowledged under acknowledge: is a warning:
the manifest drops it knowingly.

Remove the option from the compose file, and express ownership with the
declaration's owner and mode instead; or, for z, Z, propagation, nocopy
and labels, acknowledge SERVICE.volumes.TARGET.OPTION (or
*.volumes.*.OPTION) to drop it knowingly. Write a mode in octal
(mode: 0o755; for a tmpfs docker compose refuses a quoted "0755").`,
		},
		{
			ID:           "C2M013",
			Title:        "a source with no location on the target host",
			Severity:     Error,
			CheckProject: checkNoLocation,
			Doc: `A relative bind source is resolved against the directory where the
project lives on the target host, never the converting machine's; a ~
path names the legacy host's home, which the converter cannot know; a
named or anonymous volume needs a place under the module's volume root.
A bind source that is a symbolic link in the checkout (or runs through
one) is followed inside the project; a link that is absolute or leads out
of the project names, on the target host, a place the checkout does not
show.

Set host_project_directory (or --host-project-directory) for relative
binds, volume_root (or --volume-root) for volumes, or give the
declaration its own path; for a link out of the project, declare the
source {kind: host} (a path the module uses and never owns) or give it
its own path.`,
		},
		{
			ID:           "C2M014",
			Title:        "a variable used in the compose file is unset and has no default",
			Severity:     Warning,
			Also:         Error,
			CheckProject: func(p *ProjectPass) { checkUnsetVariables(p); checkUnsetEnvironment(p) },
			Doc: `An unset variable without a default becomes an empty string, and the
failure then surfaces far away (":/data", an empty image). It is an
error where it feeds a volume source, a target or an image of a service
that is converted; in a service left out by its profiles it is a
warning until a profile brings the service in. A value of .env (or of
an --env-file, or of a service's env_file) that refers to an unset
variable is a use too, as docker compose warns of it: an error where the
variable it sets feeds a volume or an image. Where the compose file
is written for an app platform that sets the variable when it runs the
app (CasaOS, known by x-casaos:, sets AppID to the project's name, PUID and PGID to 1000; umbrelOS, known by umbrel-app.yml, APP_DATA_DIR to the app's folder under /home/umbrel/umbrel/app-data), the
error says the value the platform ran it with and where that is stated;
it is never used unasked, since docker compose run by hand sets none.

Set the variable in .env or with --env-file, or give it a default in the
compose file (${VAR:-default}).`,
		},
		{
			ID:           "C2M015",
			Title:        "an environment value that looks like a plaintext secret",
			Severity:     Error,
			Also:         Warning,
			Check:        checkPlaintextSecret,
			CheckProject: checkComposeSecret,
			SkipBuilt:    true,
			Doc: `An environment variable whose name says secret has a literal value:
not empty, not a path such as a *_FILE reference under /run/secrets,
not a number, a boolean or a word saying there is none (disabled, none,
unset), and not plainly a setting: a rate (60/minute, 10r/s), a size
(512M), a duration (30s, 1h30m) or a URL with no password, query or
digits in its path. The name says secret when a word part is
password, passwd, pass, pwd, pw, secret, token, key, apikey, credential(s)
or salt (DB_PASSWORD, DB_PASS, API_KEY, SECRET_KEY_BASE, dbPassword), or
contains password, passwd or secret, or ends in token, pass, pwd, apikey,
accesskey or privatekey (WEBPASSWORD, CLIENTSECRET, AUTHTOKEN); not
KEYBOARD_LAYOUT, BYPASS_CACHE or TOKENIZER. Names with a word after the
secret word saying they hold something else (_FILE, _PATH, _DIR, _ID,
_TTL, _URL, _USER, _MIN, _POLICY, _SCHEME, _LIMIT, _LENGTH, _RATE,
_INTERVAL, …: API_KEY_RATE_LIMIT, JWT_SECRET_TTL_HOURS) are left alone. A
URL with a password in it (postgres://app:hunter2@db/app) is a secret
whatever the name. The value is judged after interpolation, wherever it
came from: the compose file, .env, an env_file or the environment. A
manifest is committed and read widely, so it never carries such a value
in plaintext: convert refuses the module (and leaves the value out of
everything it reports; reports show it masked), and check reports it in
a manifest as an error.

A variable named under credentials: is delivered as a credential the
mesh provides (the manifest's credential resource; its content is never
read or written). Where the image table says the image reads
VARIABLE_FILE (postgres, mysql, mariadb, mongo, nextcloud, … with the
entrypoint as source), the credential is mounted at /run/secrets/NAME
and the container gets VARIABLE_FILE=/run/secrets/NAME. For another
image the container's environment gets VARIABLE: {credential: NAME}: the
host sets the variable from the delivered credential when it starts the
container, and the value is never in the manifest. acknowledge naming
SERVICE.credentials.VARIABLE mounts the file and sets VARIABLE_FILE
anyway (a warning: the table does not say the image reads it).
acknowledge may instead name SERVICE.environment.VARIABLE to carry the
value knowingly: the container's comment says so, and convert and check
report it as a warning.

A value known to be a secret is also refused in every other field of
the container that carries it: another variable (DATABASE_URL), the
command, the entrypoint, a label, the healthcheck test, a config's
content, … Known secrets are the values of the variables credentials:
names, of the values judged as above, and of the secret-looking
variables of .env, the env files or the environment; but only a value
that could be a secret spreads so. Not one:
  - shorter than 8 bytes (it would match unrelated text);
  - a number, a boolean, a word saying there is none (disabled, none), or
    a setting as above;
  - a placeholder: one character repeated (xxxxxxxx), text in angle
    brackets (<secret>), or text that asks to be changed (changeme,
    replace-me, your-password-here, please-change);
  - at most three plain words of letters, 12 at most each (password,
    postgres, changePassword, not-set): a default nobody keeps;
  - contained in a name the project shows openly (its name, a service,
    network, volume, config or secret name, an image or hostname, a
    variable's name or the credential name the skeleton makes of it);
  - carried in plaintext knowingly: acknowledge names a variable with
    that value (SERVICE.environment.VARIABLE), so it is in the manifest
    already (unless a credential delivers it too: then it is refused
    there, naming both places).
A credential's value is nowhere else in plaintext: a variable holding
the same secret (the same value, or written as the same project
variable) is refused even when acknowledged, naming the credentials:
item, and the way out is the same credential; the skeleton offers one
credential per shared secret, named after the project variable or the
role its variables' names share. A variable whose whole value is a
known secret, whatever its name (mailcow's DBROOT, the value of
MYSQL_ROOT_PASSWORD), is settled like a secret-looking variable: it is
one more user of that credential.
Such a value under a secret name is still a finding of its own, which
credentials: or acknowledge: settles; it is never masked elsewhere. A
config whose environment: is a secret-looking variable is refused too:
make it a compose secret.

Every finding has a way out. Declare the variable under credentials: as
SERVICE.VARIABLE: NAME (the refusal's skeleton suggests one), or, to
carry it knowingly, list SERVICE.environment.VARIABLE under
acknowledge:. A field carrying another variable's secret reads it where
the mesh delivers it instead (the credential's file, or $$VARIABLE in a
shell-form command, entrypoint or healthcheck of the service that has
VARIABLE), is itself delivered under credentials: (another variable), or
is settled by acknowledging the variable the value is of (then it is no
secret kept); a config becomes a compose secret. A VARIABLE of other
characters than letters, digits and _ is written in double quotes in
both (sonarqube."sonar.jdbc.password",
sonarqube.environment."sonar.jdbc.password").`,
		},
		{
			ID:           "C2M016",
			Title:        "a service with build: and no image, and no image given in the declarations",
			Severity:     Error,
			CheckProject: checkNoImage,
			Doc: `The mesh runs images; it does not build them. A service that only has
build: has no image to run.

Build and push the image, then name it in the compose file (image:) or
in the declarations (images: {SERVICE: REF}).`,
		},
		{
			ID:       "C2M017",
			Title:    "two manifests name the same module",
			Severity: Error,
			CheckSet: checkModuleNames,
			Doc: `A module's name identifies it to the mesh: the host keeps one module of
each name, and convert writes it to DIR/MODULE.yaml. Two manifests (or
two compose projects) with the same name would replace each other, and
the paths of one would be removed when the other is applied.

Give each module its own name: set module: in the declarations, or the
compose project name (-p, name:), and convert again.`,
			CheckAgainst: checkAmbiguousAgainst,
		},
		{
			ID:       "C2M018",
			Title:    "the manifest differs from what its unchanged sources convert to",
			Severity: Error,
			Also:     Warning,
			Doc: `check --against converted the manifest's compose project again: its
sources are unchanged, yet the result differs from the manifest. The
manifest was edited by hand, and the next conversion would undo the edit:
convert refuses to replace a manifest whose body digest no longer holds
without --force, but one whose digest was recomputed after the edit it
replaces. An edit that changes no resource (a comment, spacing) is a
warning. When the manifest's body digest holds, the message says so, and
names the earlier compose2manifest its fingerprint records, or that the
checkout may have changed since (a bind source that became a link, a
folder gone); a digest holding shows only that the bytes match it, never
that no person edited them, since anyone can recompute it after an edit.
Plain check, which converts nothing, warns when a manifest that says
convert generated it no longer matches its body digest.

Make the change in the declarations (compose2manifest.yaml) or the
compose file instead, and convert again.`,
			CheckAgainst: checkEditedAgainst,
		},
		{
			ID:           "C2M019",
			Title:        "a service or job left out by its profiles is not in the manifest",
			Severity:     Warning,
			CheckProject: checkLeftOut,
			CheckAgainst: checkLeftOutAgainst,
			Doc: `The service has profiles: and none of them is enabled, so compose would
not start it and the manifest has no container for it. It is reported so
that a manifest never lacks a service without a word; the message names
its profiles.

check --against reports it too, as a warning (so --warnings-as-errors
fails on it), as convert --batch does: a manifest whose conversion left a
service out is converted again to name it.

Convert with --profile NAME (or --profile '*') to bring the service in, or
leave it out knowingly.`,
		},
		{
			ID:       "C2M020",
			Title:    "a container comes before a container it depends on",
			Severity: Error,
			Check:    checkStartOrder,
			Doc: `The host applies resources in the order written and does not sort, and
docker compose starts a service only after the services it depends on
(depends_on, into which links, volumes_from and network_mode, ipc or pid
service:NAME are folded). A container written before one it depends on
would start first: a worker before its database, a container sharing
another's network namespace before that namespace exists.

Move the container below the containers its depends_on names (convert
writes them in dependency order by itself; regenerate the manifest).`,
		},
		{
			ID:       "C2M021",
			Title:    "a declared mode nobody should choose",
			Severity: Error,
			Also:     Warning,
			Check:    checkUnsafeMode,
			Doc: `A declared directory writable by everyone without the sticky bit
(0777, 0757) lets anyone on the host delete or replace what the module
keeps there; a declared file writable by everyone lets anyone change
what the module reads; a file with setuid or setgid (4755, 2755) runs
with its owner's or group's rights for whoever starts it. A shared
directory keeps the sticky bit (1777, as /tmp does); a setgid directory
(2775) is fine. A declared directory without its owner's search bit
(0640, 0600: a file's mode given to a directory) locks the owner out:
the owner, and the software running as the owner, may list its names
but open nothing in it.

Choose a mode that gives the others nothing to write (0750, 0755,
1777 for a shared drop box), and for a directory the search bit (x)
wherever it gives read (0640 becomes 0750), or, when the mode is meant, set
acknowledge_mode: true on the declaration (then it is a warning, and
the manifest's comment says so).`,
		},
		{
			ID:            "C2M022",
			Title:         "a change drops or strands state",
			Severity:      Error,
			CheckPrevious: checkDroppedState,
			Doc: `check --previous OLD_DIR (or --previous-rev REV) holds the manifests
against the manifests as they were before the change. State and content
are the data a module keeps and a person backs up (SPEC section 4); a
change that loses them is easy to miss in a diff of generated files. It
is reported when, in a module of the previous manifests:

- the module is gone while it declared state or content;
- a state or content path is no longer declared (nothing mounts its data,
  no backup lists it); a parent no container mounted, with declared paths
  inside it, is judged by those paths;
- a state or content path moved: a container mounts another path at the
  same target, and no migration plan (check --plan FILE, what
  compose2manifest plan --format json writes) moves the data, so the
  host would create the new path empty;
- its intent went from state or content to cache or runtime, which the
  host removes whole, or to config or logs, which takes it out of
  inventory --backup (config is kept by the module's repository, not a
  backup; logs are backed up only by policy, with --logs, so a path
  becoming logs counts as leaving too);
- the owner or mode of a state or content path changed: the host changes
  the path itself, never the data in it, which the software may then no
  longer read;
- a container that mounted volumes is no longer converted.

Each finding is at the new manifest's line, with the previous manifest's
position beside it.

Keep the declaration as it was; or, when the change is meant, move the
data with a migration plan (compose2manifest plan) and give check the
plan, or remove the data knowingly before the change is applied.`,
		},
		{
			ID:       "C2M023",
			Title:    "a declared mode or owner contradicts what the image requires",
			Severity: Error,
			Check:    checkImageRequirement,
			Doc: `The image table has a row for the container's image and the mount's
target whose mode is required: the software refuses to run otherwise
(PostgreSQL's data directory must be 0700 or 0750 and owned by the
server's user, 999:999 on the Debian image and 70:70 on Alpine). A
declaration that says another mode, or another numeric owner while the
container runs as the image's user, gives a module that never starts.
check finds the row itself from the container's image and the mount's
target; it does not trust the declaration's comment.

Declare the mode and owner the row names (convert produces them when
the declaration leaves them out), or run the container as the owner you
declare (user:).`,
		},
		{
			ID:           "C2M024",
			Title:        "a VOLUME the image declares that no volume mounts",
			Severity:     Error,
			Check:        checkImageVolumeManifest,
			CheckProject: checkImageVolume,
			SkipBuilt:    true,
			Doc: `The image's Dockerfile declares a VOLUME at a path (the image table's
volumes: rows, each citing the Dockerfile) and no bind, volume or tmpfs
of the service mounts exactly that path; a mount of a directory above
it does not cover it (docker creates the anonymous volume below it all
the same). The runtime would create an anonymous volume there for each
new container: data
outside every declaration, which no backup takes and which a recreated
container loses. check finds the same in a manifest from the container's
image: a VOLUME path that no volume or tmpfs of the container mounts.

Declare it under anonymous: as "SERVICE:PATH" with its owner, mode and
intent (convert produces them from the image table where a row has them,
and mounts the declared directory at PATH), or, when its contents may be
lost, acknowledge SERVICE.volumes.PATH.disposable and the manifest mounts
a tmpfs there.`,
		},
		{
			ID:           "C2M025",
			Title:        "what docker compose reads without -f, --profile or --env-file is left out by them",
			Severity:     Warning,
			Also:         Error,
			CheckProject: checkFilesLeftOut,
			CheckAgainst: checkFilesLeftOutAgainst,
			Doc: `convert was given -f naming the project's own compose file
(compose.yaml, docker-compose.yml, …), and docker compose, run in the
project directory without -f, would read a file that choice leaves out:
the override file (compose.override.yaml), or another default file that
wins over the one named (compose.yaml beside docker-compose.yml). What
that file adds, such as a volume, is not in the manifest, and nothing
declares its data. So with --profile leaving out services the profiles
docker compose enables there by default (COMPOSE_PROFILES) bring in, and
with --env-file replacing the env files it reads (.env, COMPOSE_ENV_FILES),
which set the variables and may set COMPOSE_FILE and COMPOSE_PROFILES.

compose_files:, profiles: and env_files: in the declarations are judged
as -f, --profile and --env-file are: the declarations are the pull
request's to edit, and docker compose up, run in the folder, reads the
folder's files whatever they say (compose_files: naming a decoy.yaml
leaves out the compose.yaml docker compose reads).

Convert without -f (--profile, --env-file), and without those keys, to
read the project as docker compose does. If the legacy host does run
docker compose with other files or profiles, make the folder say so where
docker compose reads it too: COMPOSE_FILE (COMPOSE_PROFILES) in its .env,
or remove the files it does not run; compose_files: may name more files
after those docker compose reads. The -f files are recorded in the
manifest (converted_with: compose_files), and check --against converts
with them and with the declarations; it fails on this finding (an error
there).`,
		},
		{
			ID:           "C2M026",
			Title:        "two sources of evidence disagree on an owner or mode",
			Severity:     Warning,
			CheckProject: checkDisagreement,
			Doc: `A source's owner or mode came from one place (the declarations, the
service's user:, the image table, the image's config or layers in the
image lock, the checkout) and another source of evidence says otherwise
(a declared owner and mode that do not let the service's user: write to
a source it mounts writable, of an intent other than config, count too):
the image table says PostgreSQL's data is 999:999 and the legacy host's
survey found 70:70 there; the table says 999:999 and the locked image
config runs as 70:70. The declaration keeps the first value, by the order
of evidence (supplied, then user:, the image table and its variables,
the image config, the survey, the image layers, the checkout), and says
both in its comment; but one of them is wrong about the data, and owner
and mode apply to the path itself, not to the files in it: data owned
by 70:70 under a directory declared 999:999 may be unreadable to the
software that wrote it.

Find out which is right (the survey is what the data has today; the
image is what a new container makes) and declare the owner and mode in
compose2manifest.yaml; a declared value that the evidence contradicts
stays reported, so declare the one the data needs.`,
		},
		{
			ID:           "C2M027",
			Title:        "a default compose file beside the one read is read by neither docker compose nor convert",
			Severity:     Warning,
			CheckProject: checkFilesPassedOver,
			Doc: `convert was run without -f, and the project's folder has more than one
file of the names docker compose looks for (compose.yaml, compose.yml,
docker-compose.yaml, docker-compose.yml), or more than one override file
(compose.override.yaml, docker-compose.override.yml, …). docker compose
reads the first of each, in that order, and warns "Found multiple config
files with supported names"; so does convert, and the manifest holds
what the first says. What the others say (a service, a volume) is in
neither: an author who edits docker-compose.yml beside compose.yaml
changes nothing that runs. convert --batch lists such a file as not
converted.

Remove the file passed over, or merge what it says into the one read; if
both are meant, name them: COMPOSE_FILE in the folder's .env, or -f for
each (compose_files: in the declarations).`,
		},
		{
			ID:           "C2M028",
			Title:        "a declaration that is not applied",
			Severity:     Warning,
			CheckProject: checkUnapplied,
			Doc: `The declarations may stand in the sidecar file (compose2manifest.yaml)
and under a top-level x-compose2manifest: of the compose files convert
is given. Where both give a setting (module, host_project_directory,
volume_root, layout) and the values differ, the sidecar file wins, and
the compose file's value is applied nowhere: a reader of the compose
file sees volume_root: /var/lib and the manifest places volumes under
/srv. An x-compose2manifest: in an included compose file (include:, or
the base of an extends.file) is not read at all, as docker compose merges
no top-level extension of an included file.

Write each setting in one place, and move the declarations of an
included file to the sidecar file or to the x-compose2manifest: of a
compose file convert is given.`,
		},
		{
			ID:       "C2M029",
			Title:    "data the host keeps declared where the host removes it",
			Severity: Error,
			Check:    checkKeptInRemoved,
			Doc: `A directory or file whose intent the host keeps (state, content, logs,
config) lies inside a directory of the module declared cache or runtime,
which the host removes whole when the module goes away (and may empty on
restart: runtime), or under a place the system itself empties: /run and
/var/run (a tmpfs, emptied at boot), /tmp and /dev/shm, /var/cache (whose
data, the FHS says, may be deleted at any time). The intent of the inner
declaration says keep it; the place says it goes: a database declared
state under volume_root /run is lost at the next boot, a state directory
inside a cache one with the module.

Give the inner declaration a path outside (or the outer one the intent
it really has: a cache that holds state is state), or a volume_root or
host_project_directory that is not such a place.`,
		},
		{
			ID:           "C2M030",
			Title:        "a service's user: with an empty user or group",
			Severity:     Error,
			Also:         Warning,
			CheckProject: checkUserParts,
			Check:        checkUserPartsManifest,
			SkipBuilt:    true,
			Doc: `docker reads an empty part of user: as a default, not as nobody: an
empty user is uid 0, root (the image's USER is not used once user: is
written), and an empty group is the one the image's /etc/passwd gives
the user (0 when it has none). user: ":" is what user: "${UID}:${GID}"
becomes when both variables are unset (UID and GID are shell variables,
not in the environment docker compose reads): the service runs as root,
and the files it makes in its volumes are root's. It is an error; an
empty user alone (":1000", root with group 1000) or group alone
("1000:") is a warning saying how docker runs it. No owner is produced
from an empty part. check judges a container's user: in a manifest the
same way.

Write both parts (user: "1000:1000"), or set the variables user: is
made of (in .env or with --env-file); leave user: out to run as the
image's own user.`,
		},
	}
}

// emptiedBySystem are the places the system empties or may delete, with
// why: no data the host keeps belongs below them (C2M029).
var emptiedBySystem = []struct{ dir, why string }{
	{"/run", "a tmpfs, emptied at boot"},
	{"/var/run", "a link to /run, a tmpfs emptied at boot"},
	{"/tmp", "emptied at boot or by age"},
	{"/dev/shm", "shared memory, a tmpfs emptied at boot"},
	{"/var/cache", "the FHS says its data may be deleted at any time"},
}

// checkKeptInRemoved is C2M029: a declared path whose intent the host
// keeps (not cache or runtime) inside a declared cache or runtime
// directory of the module, or under a place the system empties
// (emptiedBySystem).
func checkKeptInRemoved(p *Pass) {
	declared := p.Module.Declared()
	removed := func(i manifest.Intent) bool { return i == manifest.IntentCache || i == manifest.IntentRuntime }
	var roots []string
	for _, r := range p.Module.Roots {
		roots = append(roots, r.Path)
	}
	for _, r := range declared {
		if r.Intent == "" || removed(r.Intent) {
			continue
		}
		if _, ok := Ownable(r.Path, p.Module.Module, roots); !ok {
			continue // not the module's to own there at all: C2M006
		}
		reported := false
		for _, e := range emptiedBySystem {
			if r.Path == e.dir || strings.HasPrefix(r.Path, e.dir+"/") {
				p.Report(Diag(r, "%s %s is declared %s, which the host keeps, but lies under %s (%s): its data would be lost", r.Kind, r.Path, r.Intent, e.dir, e.why))
				reported = true
				break
			}
		}
		if reported {
			continue
		}
		var d *manifest.Resource // the nearest such directory above r
		for _, o := range declared {
			if o != r && o.Kind == manifest.KindDirectory && removed(o.Intent) && strings.HasPrefix(r.Path, o.Path+"/") && (d == nil || len(o.Path) > len(d.Path)) {
				d = o
			}
		}
		if d != nil {
			diag := Diag(r, "%s %s is declared %s, which the host keeps, but lies inside directory %s, declared %s, which the host removes whole when the module goes away: its data would go with it", r.Kind, r.Path, r.Intent, d.Path, d.Intent)
			if lp := d.Pos.String(); lp != "" {
				diag.relate(d.Pos, "the "+string(d.Intent)+" directory is declared here")
			}
			p.Report(diag)
		}
	}
}

func checkStartOrder(p *Pass) {
	at := map[string]int{}
	cs := p.Module.Containers()
	for i, c := range cs {
		at[c.Container.Name] = i
	}
	for i, c := range cs {
		for _, dep := range c.Container.DependsOn {
			j, ok := at[dep.Service]
			if !ok || j <= i {
				continue
			}
			d := Diag(c, "container %s is written before container %s, which it depends on", c.Container.Name, dep.Service)
			d.Service = c.Container.Name
			if lp := cs[j].Pos.String(); lp != "" {
				d.Message += " (" + lp + ")"
				d.relate(cs[j].Pos, "the container it depends on is written here")
			}
			p.Report(d)
		}
	}
}

func checkUndeclaredSource(p *Pass) {
	declared := map[string]bool{}
	for _, r := range p.Module.Declared() {
		declared[r.Path] = true
	}
	for _, c := range p.Module.Containers() {
		for i, v := range c.Container.Volumes {
			if declared[v.Source] {
				continue
			}
			d := Diag(c, "mounted at %s, but not declared as a directory, file or host path", v.Target)
			if at := c.VolumeAt(i); at.Line > 0 {
				d.File, d.Line = at.File, at.Line
			}
			d.Service, d.Source, d.Target = c.Container.Name, v.Source, v.Target
			if anc := nearestDeclared(declared, v.Source); anc != "" {
				d.Message += "; its declared ancestor " + anc + " does not cover it"
			}
			p.Report(d)
		}
	}
}

func nearestDeclared(declared map[string]bool, path string) string {
	for _, a := range ancestors(path) {
		if declared[a] {
			return a
		}
	}
	return ""
}

func checkIncomplete(p *Pass) {
	for _, r := range p.Module.Declared() {
		if r.Kind == manifest.KindHost {
			continue
		}
		var missing, invalid []string
		switch {
		case r.Owner == "":
			missing = append(missing, "owner")
		case !manifest.ValidOwner(r.Owner):
			problem := manifest.OwnerProblem(r.Owner)
			if problem == manifest.NotUserGroup {
				problem = `want "USER:GROUP"`
			}
			invalid = append(invalid, "owner "+quote(r.Owner)+" ("+problem+")")
		}
		switch {
		case r.Mode == "":
			missing = append(missing, "mode")
		case !manifest.ValidMode(r.Mode):
			invalid = append(invalid, "mode "+quote(r.Mode)+` (want 3 or 4 octal digits, quoted: "0750")`)
		}
		switch {
		case r.Intent == "":
			missing = append(missing, "intent")
		case !r.Intent.Valid():
			invalid = append(invalid, "intent "+quote(string(r.Intent))+" (want state, content, config, logs, cache or runtime)")
		}
		if len(missing) == 0 && len(invalid) == 0 {
			continue
		}
		var parts []string
		if len(missing) > 0 {
			parts = append(parts, "missing "+strings.Join(missing, ", "))
		}
		if len(invalid) > 0 {
			parts = append(parts, "invalid "+strings.Join(invalid, ", "))
		}
		p.Report(Diag(r, "%s %s: %s", r.Kind, r.Path, strings.Join(parts, "; ")))
	}
}

func quote(s string) string { return `"` + s + `"` }

func checkParentFirst(p *Pass) {
	decl := p.Module.Declared()
	index := declaredIndex(decl)
	for i, r := range decl {
		// The ancestors declared after r, in the order declared: each
		// path has few ancestors, so this is O(N·depth), not O(N²).
		var later []int
		for _, a := range ancestors(r.Path) {
			for _, j := range index[a] {
				if j > i {
					later = append(later, j)
				}
			}
		}
		sort.Ints(later)
		for _, j := range later {
			d := Diag(r, "%s is declared before its ancestor %s", r.Path, decl[j].Path)
			if lp := decl[j].Pos.String(); lp != "" {
				d.Message += " (" + lp + ")"
				d.relate(decl[j].Pos, "the ancestor is declared here")
			}
			p.Report(d)
		}
	}
}

// declaredIndex maps each declared path to its indices in decl.
func declaredIndex(decl []*manifest.Resource) map[string][]int {
	index := make(map[string][]int, len(decl))
	for i, r := range decl {
		index[r.Path] = append(index[r.Path], i)
	}
	return index
}

// ancestors returns the proper ancestors of a clean absolute path,
// nearest first: /a/b/c gives /a/b, /a, /.
func ancestors(p string) []string {
	var out []string
	for a := parentOf(p); a != ""; a = parentOf(a) {
		out = append(out, a)
	}
	return out
}

func checkFileKind(p *Pass) {
	decl := p.Module.Declared()
	index := declaredIndex(decl)
	type pair struct{ file, below int }
	var found []pair
	for i, r := range decl {
		for _, a := range ancestors(r.Path) {
			for _, j := range index[a] {
				if decl[j].Kind == manifest.KindFile {
					found = append(found, pair{j, i})
				}
			}
		}
	}
	// In the order files are declared, then the paths below each.
	sort.Slice(found, func(x, y int) bool {
		if found[x].file != found[y].file {
			return found[x].file < found[y].file
		}
		return found[x].below < found[y].below
	})
	for _, f := range found {
		r := decl[f.below]
		p.Report(Diag(r, "%s is declared below %s, which is declared as a file", r.Path, decl[f.file].Path))
	}
}

func checkDuplicate(p *Pass) {
	seen := map[string]*manifest.Resource{}
	for _, r := range p.Module.Declared() {
		if first, ok := seen[r.Path]; ok {
			p.Report(twice(r, first, r.Path))
			continue
		}
		seen[r.Path] = r
	}
	// Two containers, or two credentials, of one name: the host keeps one
	// of each name, so one would silently replace the other.
	named := map[manifest.Kind]map[string]*manifest.Resource{}
	for i := range p.Module.Resources {
		r := &p.Module.Resources[i]
		if r.Kind != manifest.KindContainer && r.Kind != manifest.KindCredential {
			continue
		}
		name := r.Key()
		if name == "" {
			continue
		}
		if named[r.Kind] == nil {
			named[r.Kind] = map[string]*manifest.Resource{}
		}
		if first, ok := named[r.Kind][name]; ok {
			d := twice(r, first, fmt.Sprintf("%s %q", r.Kind, name))
			if r.Kind == manifest.KindContainer {
				d.Service = name
			}
			p.Report(d)
			continue
		}
		named[r.Kind][name] = r
	}
	// Two mounts at one target of a container: docker refuses the
	// container (duplicate mount point); convert never writes one.
	for _, c := range p.Module.Containers() {
		targets := map[string]bool{}
		type mount struct {
			target string
			at     manifest.Pos
		}
		var all []mount
		for i, v := range c.Container.Volumes {
			all = append(all, mount{v.Target, c.VolumeAt(i)})
		}
		for _, t := range c.Container.Tmpfs {
			all = append(all, mount{t.Target, c.Pos})
		}
		for _, m := range all {
			if targets[m.target] {
				d := Diag(c, "container %q mounts two volumes at %s: docker refuses a container with a duplicate mount point", c.Container.Name, m.target)
				d.Service, d.Target = c.Container.Name, m.target
				if m.at.Line > 0 {
					d.File, d.Line = m.at.File, m.at.Line
				}
				p.Report(d)
				continue
			}
			targets[m.target] = true
		}
	}
}

// twice reports r, the second declaration of what, against first.
func twice(r, first *manifest.Resource, what string) Diagnostic {
	d := Diag(r, "%s is declared twice", what)
	if fp := first.Pos.String(); fp != "" {
		d.Message += "; first at " + fp
		d.relate(first.Pos, "first declared here")
	}
	return d
}

// checkDuplicateSet reports a path owned (declared as a directory or file)
// by two modules, each later owner against the first, as an error; and a
// path one module owns and another uses as a host path, as a warning that
// the user depends on the owner. Two modules using the same host path is
// fine. Modules with the same name are left to C2M017.
func checkDuplicateSet(p *SetPass) {
	type decl struct {
		module string
		res    *manifest.Resource
	}
	var paths []string
	byPath := map[string][]decl{}
	for _, m := range p.Modules {
		for _, r := range m.Declared() {
			if _, ok := byPath[r.Path]; !ok {
				paths = append(paths, r.Path)
			}
			byPath[r.Path] = append(byPath[r.Path], decl{m.Module, r})
		}
	}
	for _, path := range paths {
		var owner *decl
		for _, d := range byPath[path] {
			if d.res.Kind != manifest.KindHost {
				owner = &d
				break
			}
		}
		if owner == nil {
			continue
		}
		for _, d := range byPath[path] {
			if d.module == owner.module {
				continue
			}
			var diag Diagnostic
			if d.res.Kind == manifest.KindHost {
				diag = Diag(d.res, "module %q uses %s as a host path, but module %q owns it as a %s: %q depends on %q", d.module, path, owner.module, owner.res.Kind, d.module, owner.module)
				diag.Severity = Warning
			} else {
				diag = Diag(d.res, "%s is owned by module %q as a %s and by module %q as a %s", path, owner.module, owner.res.Kind, d.module, d.res.Kind)
			}
			if op := owner.res.Pos.String(); op != "" {
				diag.Message += " (" + op + ")"
				diag.relate(owner.res.Pos, fmt.Sprintf("module %q declares it here", owner.module))
			}
			diag.Module = d.module
			p.Report(diag)
		}
	}
	// A directory or file one module owns inside a directory another
	// module owns: the outer module's removal rules reach into it.
	for _, inner := range paths {
		for _, di := range byPath[inner] {
			if di.res.Kind == manifest.KindHost {
				continue
			}
			for anc := parentOf(inner); anc != ""; anc = parentOf(anc) {
				var outer *decl
				for i, d := range byPath[anc] {
					if d.res.Kind != manifest.KindHost {
						outer = &byPath[anc][i]
						break
					}
				}
				if outer == nil || outer.module == di.module {
					continue
				}
				diag := Diag(di.res, "%s of module %q lies inside %s, which module %q owns: that module's removal and ownership reach into it", inner, di.module, anc, outer.module)
				if op := outer.res.Pos.String(); op != "" {
					diag.Message += " (" + op + ")"
					diag.relate(outer.res.Pos, fmt.Sprintf("module %q declares %s here", outer.module, anc))
				}
				diag.Severity = Warning
				diag.Module = di.module
				p.Report(diag)
				break
			}
		}
	}
	checkSharedOrigin(p)
	checkMovedFromUnder(p)
}

// checkSharedOrigin is C2M005 across modules: one Docker volume (a
// name: or an external volume two projects share) or one absolute host
// directory that two modules each own a copy of, at paths of their own;
// or one module's copy of a host directory inside another's copy of a
// directory that holds it (/mnt/dl/sub in one, /mnt/dl in the other):
// the projects shared that data under docker, and their copies would
// drift apart. Each resource's origin is the one convert gave it, or,
// in a manifest read from disk, the one its comment records
// (manifest.Resource.Legacy), so a batch and a check of the manifests
// find the same. Of two modules, the later in the set's order gets the
// error, naming the earlier.
func checkSharedOrigin(p *SetPass) {
	type owned struct {
		module string
		order  int
		res    *manifest.Resource
	}
	var origins []string
	byOrigin := map[string][]owned{}
	for i, m := range p.Modules {
		for _, r := range m.Declared() {
			if r.Kind == manifest.KindHost {
				continue
			}
			o := r.Legacy()
			if !SharableOrigin(o) {
				continue // a relative bind is each checkout's own
			}
			o = OriginKey(o)
			if _, ok := byOrigin[o]; !ok {
				origins = append(origins, o)
			}
			byOrigin[o] = append(byOrigin[o], owned{m.Module, i, r})
		}
	}
	for _, o := range origins {
		first := byOrigin[o][0]
		for _, d := range byOrigin[o][1:] {
			if d.module == first.module || d.res.Path == first.res.Path {
				continue // one module's own, or one path (reported above)
			}
			diag := Diag(d.res, "%s is copied into module %q at %s and into module %q at %s: docker shares it between the projects, and the two copies would drift apart; let one module own it, and the other project use %s as a host path (declare %s {kind: host, path: %s})", strings.TrimPrefix(o, "bind "), first.module, first.res.Path, d.module, d.res.Path, first.res.Path, originWord(o), first.res.Path)
			diag.relate(first.res.Pos, fmt.Sprintf("module %q declares its copy here", first.module))
			diag.Module = d.module
			p.Report(diag)
		}
	}
	// A host directory copied inside another module's copy of one that
	// holds it: the nearest such ancestor, once per pair of resources.
	for _, o := range origins {
		dir, ok := strings.CutPrefix(o, "bind ")
		if !ok {
			continue
		}
		for _, inner := range byOrigin[o] {
			for anc := parentOf(dir); anc != ""; anc = parentOf(anc) {
				var outer *owned
				for i, d := range byOrigin["bind "+anc] {
					if d.module != inner.module {
						outer = &byOrigin["bind "+anc][i]
						break
					}
				}
				if outer == nil {
					continue
				}
				at, other := inner, *outer
				if other.order > at.order {
					at, other = other, at
				}
				within := path.Join(outer.res.Path, strings.TrimPrefix(dir[len(anc):], "/"))
				diag := Diag(at.res, "%s is copied into module %q at %s, and %s, which holds it, into module %q at %s: docker shares that data between the projects, and the two copies would drift apart; let one module own the copy of %s, and the other project use %s (where %s lands in it) as a host path (a bind declared kind: host)", dir, inner.module, inner.res.Path, anc, outer.module, outer.res.Path, anc, within, dir)
				diag.relate(other.res.Pos, fmt.Sprintf("module %q declares its copy here", other.module))
				diag.Module = at.module
				p.Report(diag)
				break
			}
		}
	}
	// A host directory one module copies elsewhere while another uses
	// it in place (kind: host), or a path inside it: once the data
	// moves, the second reads what was left behind.
	for _, m := range p.Modules {
		for _, r := range m.Declared() {
			if r.Kind != manifest.KindHost || !path.IsAbs(r.Path) {
				continue
			}
			h := path.Clean(r.Path)
			for anc := h; anc != ""; anc = parentOf(anc) {
				var copied *owned
				for i, d := range byOrigin["bind "+anc] {
					if d.module != m.Module && d.res.Path != anc {
						copied = &byOrigin["bind "+anc][i]
						break
					}
				}
				if copied == nil {
					continue
				}
				within := path.Join(copied.res.Path, strings.TrimPrefix(h[len(anc):], "/"))
				diag := Diag(r, "module %q uses %s where it is (kind: host), but module %q copies %s to %s: once the data moves, %q reads what was left behind; let %q own it where it is, or let %q use %s (where %s lands) as its host path", m.Module, h, copied.module, anc, copied.res.Path, m.Module, copied.module, m.Module, within, h)
				diag.relate(copied.res.Pos, fmt.Sprintf("module %q declares its copy here", copied.module))
				diag.Module = m.Module
				p.Report(diag)
				break
			}
		}
	}
}

// checkMovedFromUnder is C2M005 across modules, the converse of a host
// use of a copied directory: one module copies a host directory
// elsewhere (its data moves, by plan) while another uses a directory
// that holds it where it is (kind: host, or owned in place): once the
// data moves, the second sees what was left behind and never the copy
// (a media server reading /mnt/media while sonarr's /mnt/media/tv moves
// to /srv/sonarr). A system directory (SystemPaths: /, /mnt, /home) used
// in place is no such holder: a monitor reading the whole host sees a
// moved copy too. The copy gets the error, once, naming the nearest
// holder.
func checkMovedFromUnder(p *SetPass) {
	type use struct {
		module string
		res    *manifest.Resource
	}
	system := map[string]bool{}
	for _, sp := range SystemPaths() {
		system[sp] = true
	}
	inPlace := map[string][]use{}
	for _, m := range p.Modules {
		for _, r := range m.Declared() {
			if !path.IsAbs(r.Path) || r.Kind != manifest.KindHost && r.Legacy() != "" {
				continue
			}
			if c := path.Clean(r.Path); !system[c] {
				inPlace[c] = append(inPlace[c], use{m.Module, r})
			}
		}
	}
	if len(inPlace) == 0 {
		return
	}
	for _, m := range p.Modules {
		for _, r := range m.Declared() {
			dir, ok := strings.CutPrefix(OriginKey(r.Legacy()), "bind ")
			if !ok || r.Kind == manifest.KindHost || path.Clean(r.Path) == dir {
				continue
			}
			found := false
			for anc := parentOf(dir); anc != "" && !found; anc = parentOf(anc) {
				for _, u := range inPlace[anc] {
					if u.module == m.Module {
						continue
					}
					how := "uses where it is (kind: host)"
					if u.res.Kind != manifest.KindHost {
						how = "owns where it is"
					}
					diag := Diag(r, "module %q copies %s to %s, out from under %s, which module %q %s: once the data moves, %q sees what was left behind there and never the copy; keep it where it is (kind: host, or owned in place with roots:), or let %q use %s as its host path", m.Module, dir, r.Path, anc, u.module, how, u.module, u.module, r.Path)
					diag.relate(u.res.Pos, fmt.Sprintf("module %q uses %s here", u.module, anc))
					diag.Module = m.Module
					p.Report(diag)
					found = true
					break
				}
			}
		}
	}
}

// OriginKey returns the form two origins are compared by: a bind's host
// path cleaned ("bind /mnt/dl/" as "bind /mnt/dl"), anything else as it is.
func OriginKey(legacy string) string {
	if dir, ok := strings.CutPrefix(legacy, "bind /"); ok {
		return "bind " + path.Clean("/"+dir)
	}
	return legacy
}

// checkRelativeTarget is C2M010 over a manifest: a container volume or
// tmpfs mounted at a path that is not absolute and clean, which docker
// refuses (compose-go reads "w:/data:ro" as the Windows path w:/data
// mounted at "ro").
func checkRelativeTarget(p *Pass) {
	for _, c := range p.Module.Containers() {
		for i, v := range c.Container.Volumes {
			if !manifest.ValidPath(v.Target) {
				d := Diag(c, "container %q mounts %s at %q, a target that is not an absolute, clean path: docker refuses it", c.Container.Name, v.Source, v.Target)
				d.Service, d.Target = c.Container.Name, v.Target
				if at := c.VolumeAt(i); at.Line > 0 {
					d.File, d.Line = at.File, at.Line
				}
				p.Report(d)
			}
		}
		for _, t := range c.Container.Tmpfs {
			if !manifest.ValidPath(t.Target) {
				d := Diag(c, "container %q mounts a tmpfs at %q, a target that is not an absolute, clean path: docker refuses it", c.Container.Name, t.Target)
				d.Service, d.Target = c.Container.Name, t.Target
				p.Report(d)
			}
		}
	}
}

// CheckoutOrigin returns legacy (a resource's manifest.Origin.Legacy)
// with a relative bind's path ("bind ../common", "bind ./data") made
// absolute against dir, the project's folder in a checkout of many
// projects (slash-separated or not), and anything else as it is. A batch
// and check --against take the checkout's layout for the legacy host's,
// so C2M005 finds the data two projects share through relative paths (a
// ../common beside both, a ../a/media inside another), as it finds an
// absolute host path two projects mount. A manifest records the relative
// origin; plain check, which knows no checkout, compares absolute origins
// only.
func CheckoutOrigin(legacy, dir string) string {
	rel, ok := strings.CutPrefix(legacy, "bind ")
	if !ok || !strings.HasPrefix(rel, ".") || dir == "" {
		return legacy
	}
	return "bind " + path.Join(filepath.ToSlash(dir), rel)
}

// originWord names what declares a resource of origin legacy (a
// manifest.Origin.Legacy): "the bind" or "the named volume".
func originWord(legacy string) string {
	if strings.HasPrefix(legacy, "bind ") {
		return "the bind"
	}
	return "the named volume"
}

// SharableOrigin reports whether legacy (a resource's
// manifest.Origin.Legacy) names data two projects can share, which
// C2M005 compares across modules: a Docker volume, or an absolute host
// path. A relative bind and an anonymous volume are each checkout's own.
func SharableOrigin(legacy string) bool {
	return strings.HasPrefix(legacy, "Docker volume ") || strings.HasPrefix(legacy, "bind /")
}

// ParentOf returns the parent of a clean absolute path; "" for "/" and
// for a path that is not absolute. C2M005 walks a path's ancestors by it
// to find one that another module owns.
func ParentOf(p string) string { return parentOf(p) }

// parentOf returns the parent of a clean absolute path; "" for "/" and
// for a path that is not absolute.
func parentOf(p string) string {
	if p == "/" || !strings.HasPrefix(p, "/") {
		return ""
	}
	return path.Dir(p)
}

// checkModuleNames reports every module whose name another module of the
// set also has, naming the other manifests.
func checkModuleNames(p *SetPass) {
	byName := map[string][]*manifest.Module{}
	for _, m := range p.Modules {
		byName[m.Module] = append(byName[m.Module], m)
	}
	for _, m := range p.Modules {
		same := byName[m.Module]
		if len(same) < 2 {
			continue
		}
		var others []string
		d := Diagnostic{File: m.Pos.File, Line: m.Pos.Line, Module: m.Module}
		for _, o := range same {
			switch {
			case o == m:
			case o.Pos.String() == "":
				others = append(others, "another manifest")
			default:
				others = append(others, o.Pos.String())
				d.relate(o.Pos, "the other manifest of module "+strconv.Quote(m.Module))
			}
		}
		d.Message = fmt.Sprintf("module %q is also the module of %s", m.Module, strings.Join(others, ", "))
		p.Report(d)
	}
}

// SystemPaths lists the host paths no module may declare as a directory or
// file it owns.
func SystemPaths() []string {
	return []string{"/", "/bin", "/boot", "/dev", "/etc", "/home", "/lib", "/lib64", "/media", "/mnt",
		"/opt", "/proc", "/root", "/run", "/sbin", "/srv", "/sys", "/tmp", "/usr", "/usr/bin",
		"/usr/lib", "/usr/local", "/usr/sbin", "/usr/share", "/var", "/var/cache", "/var/lib",
		"/var/log", "/var/run", "/var/spool", "/var/tmp"}
}

// hostTrees are host paths that no module may own, with everything below
// them: kernel and device file systems, the boot partition, the container
// runtimes' own state and sockets, and the kernel's modules.
var hostTrees = []string{"/proc", "/sys", "/dev", "/boot", "/root",
	"/bin", "/sbin", "/lib", "/lib32", "/lib64", "/usr",
	"/var/lib/docker", "/var/lib/containerd", "/var/lib/containers", "/var/lib/kubelet",
	"/var/lib/dpkg", "/var/lib/apt", "/var/lib/rpm", "/var/lib/systemd", "/var/spool/cron",
	"/run/docker.sock", "/var/run/docker.sock", "/run/containerd", "/var/run/containerd",
	"/run/podman", "/var/run/podman", "/run/crio", "/run/systemd", "/run/user", "/var/run/user",
	"/etc/ssh", "/etc/pam.d", "/etc/sudoers.d", "/etc/security", "/etc/systemd", "/etc/cron.d",
	"/etc/ssl", "/etc/pki", "/etc/apt", "/etc/default", "/etc/init.d", "/etc/ld.so.conf.d",
	"/etc/sysctl.d", "/etc/modprobe.d", "/etc/udev", "/etc/network", "/etc/NetworkManager",
	"/lib/modules"}

// hostFiles are the host's identity and credential files, which no module
// may own.
var hostFiles = []string{"/etc/passwd", "/etc/shadow", "/etc/group", "/etc/gshadow", "/etc/sudoers",
	"/etc/passwd-", "/etc/shadow-", "/etc/group-", "/etc/gshadow-", "/etc/ld.so.preload",
	"/etc/fstab", "/etc/crontab", "/etc/environment", "/etc/profile",
	"/etc/hosts", "/etc/hostname", "/etc/resolv.conf", "/etc/localtime", "/etc/timezone"}

// HostPath reports whether no module may own p as a directory or file
// (C2M006), and why, for people ("a system directory", "under /proc"): p
// is a system path (SystemPaths), is or lies under a host tree such as
// /proc, /dev or /var/lib/docker, or is one of the host's identity or
// credential files (/etc/passwd, /etc/localtime, …).
// A module may still use such a path as kind: host.
func HostPath(p string) (why string, ok bool) {
	for _, s := range SystemPaths() {
		if p == s {
			return "a system directory", true
		}
	}
	for _, t := range hostTrees {
		if p == t {
			return "managed by the host", true
		}
		if strings.HasPrefix(p, t+"/") {
			return "under " + t, true
		}
	}
	for _, f := range hostFiles {
		if p == f {
			return "a host identity or credential file", true
		}
	}
	if dir, name := path.Split(p); dir == "/home/" && name != "" {
		return "a user's home directory", true
	}
	return "", false
}

func checkSystemPath(p *Pass) {
	m := p.Module
	var roots []string // the valid ones
	for _, r := range m.Roots {
		if why, ok := Root(r.Path); !ok {
			p.Report(Diagnostic{File: r.Pos.File, Line: r.Pos.Line,
				Message: fmt.Sprintf("root %s is a host path the module must not take as its own (%s); name a directory of its own, such as /srv/%s or /data/%s", r.Path, why, m.Module, m.Module)})
			continue
		}
		roots = append(roots, r.Path)
	}
	for _, r := range m.Declared() {
		if r.Kind == manifest.KindHost {
			continue
		}
		why, ok := Ownable(r.Path, m.Module, roots)
		if ok {
			continue
		}
		if why == outside {
			why = "outside the places a module may own: below " + strings.Join(DataRoots(), ", ")
			if etc := ModuleEtc(m.Module); etc != "" {
				why += ", in " + etc
			}
			if len(roots) > 0 {
				why += ", or in its roots " + strings.Join(roots, ", ")
			} else {
				why += ", or in a directory named under roots:"
			}
		}
		p.Report(Diag(r, "%s is a host path the module must not own (%s); use kind: host if the module only uses it", r.Path, why))
	}
}

func checkUndeclaredParent(p *Pass) {
	known := map[string]bool{}
	for _, s := range SystemPaths() {
		known[s] = true
	}
	for _, r := range p.Module.Declared() {
		known[r.Path] = true
	}
	for _, r := range p.Module.Declared() {
		if r.Kind == manifest.KindHost || r.Path == "/" || !manifest.ValidPath(r.Path) {
			continue
		}
		parent := r.Path[:strings.LastIndex(r.Path, "/")]
		if parent == "" {
			parent = "/"
		}
		if !known[parent] {
			p.Report(Diag(r, "parent %s of %s is not declared; the host would create it as root 0755", parent, r.Path))
		}
	}
}

// UndeclaredAncestors returns the directories the host would create as
// root 0755 for m: every ancestor of a declared directory or file that is
// neither declared nor a system path, up to the first one that is, sorted
// parent-first. Declaring them (directories: in the declarations) clears
// C2M011.
func UndeclaredAncestors(m *manifest.Module) []string {
	known := map[string]bool{}
	for _, s := range SystemPaths() {
		known[s] = true
	}
	for _, r := range m.Declared() {
		known[r.Path] = true
	}
	seen := map[string]bool{}
	var out []string
	for _, r := range m.Declared() {
		if r.Kind == manifest.KindHost || !manifest.ValidPath(r.Path) {
			continue
		}
		for p := path.Dir(r.Path); !known[p] && p != "/" && !seen[p]; p = path.Dir(p) {
			seen[p] = true
			out = append(out, p)
		}
	}
	sort.Slice(out, func(i, j int) bool { return manifest.ComparePaths(out[i], out[j]) < 0 })
	return out
}

func checkPlaintextSecret(p *Pass) {
	for _, c := range p.Module.Containers() {
		keys := make([]string, 0, len(c.Container.Environment))
		for k := range c.Container.Environment {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			if v := c.Container.Environment[k]; LooksLikeSecret(k, v) {
				d := Diag(c, "environment %s=%s is a literal value that looks like a secret; a manifest never carries it in plaintext: deliver it as a credential (credentials: in the declarations), or acknowledge %s", k, Mask(v), declare.AckVariable(declare.AckEnvironment, c.Container.Name, k))
				if hasNote(c.Comment, AckPlaintextNote(k)) {
					d = Diag(c, "environment %s=%s is a literal value that looks like a secret; acknowledged, the manifest carries it in plaintext", k, Mask(v))
					d.Severity, d.Acknowledged = Warning, true
				}
				d.Service = c.Container.Name
				p.Report(d)
			}
		}
		// A password in a URL is a secret in any other field too.
		ct := c.Container
		fields := map[string][]string{"command": ct.Command, "entrypoint": ct.Entrypoint}
		if ct.Healthcheck != nil {
			fields["healthcheck test"] = ct.Healthcheck.Test
		}
		for k, v := range ct.Labels {
			fields["labels "+k] = []string{v}
		}
		for k, v := range ct.Annotations {
			fields["annotations "+k] = []string{v}
		}
		for _, name := range slices.Sorted(maps.Keys(fields)) {
			if slices.ContainsFunc(fields[name], func(s string) bool { return project.URLPassword(s) != "" }) {
				d := Diag(c, "%s carries a password in a URL (%s), a secret; a manifest never carries it in plaintext: have the container read it where the mesh delivers it (a credential's file under /run/secrets)", name, Mask(""))
				d.Service = c.Container.Name
				p.Report(d)
			}
		}
	}
}
