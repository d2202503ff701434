package inventory

// About is compose2manifest inventory's help text.
const About = `List every path the manifests declare, across modules: module, kind,
intent, owner, mode, and whether it is backed up (state and content are;
config is not, the module's repo is its backup; cache, runtime and host
paths are not; logs by policy). A DIR stands for the *.yaml and *.yml
files directly in it, as for check. The manifests are read, not judged:
run check for that.

--backup prints the paths to back up, one a line (NUL-terminated with -0),
a path inside another left out, for restic backup --files-from-verbatim
FILE (--files-from-raw with -0) and borg create --paths-from-stdin.
--exclude prints the declared paths inside those that are not backed up
themselves (cache, runtime, config; logs without --logs): give them to
restic --exclude-file, borg --exclude-from or tar --exclude-from, and the
backup holds exactly the state and content paths. --exclude-caches prints the cache
directories, where a CACHEDIR.TAG makes restic, borg and tar
(--exclude-caches) leave them out of the backup of their parent.

Exit status: 0, or 2 for bad usage or a manifest that cannot be read.

flags:
`
