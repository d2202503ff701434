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
FILE (--files-from-raw with -0) and tar -c --verbatim-files-from -T FILE
(--null -T with -0). --exclude --for CLIENT prints the declared paths
inside those that are not backed up themselves (cache, runtime, config;
logs without --logs) as CLIENT's exclude list, escaped so that CLIENT reads
each path literally: restic --exclude-file, tar -X (before -T), borg
--exclude-from (pp:PATH). --backup --for borg prints a borg patterns file
(R PATH lines and ! pp:PATH lines) for borg create --patterns-from FILE
REPO::NAME: borg's --paths-from-stdin does not recurse into directories.
With these, the backup holds exactly the state and content paths.
--exclude-caches prints the cache directories, where a CACHEDIR.TAG makes
restic, borg and tar (--exclude-caches) leave them out of the backup of
their parent.

Exit status: 0, or 2 for bad usage or a manifest that cannot be read.

flags:
`
