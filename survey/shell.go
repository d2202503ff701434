package survey

// scriptHead is the survey script's functions. Every string the script
// prints goes through json (or jhex, for what docker prints in
// hexadecimal: its templates print names with printf "%x", so that no
// byte of them can break a line or the JSON); the section and key of
// each source are JSON written by the generator.
const scriptHead = `
set -u
LC_ALL=C
export LC_ALL

# JSON_AWK reads bytes as lowercase hexadecimal pairs and prints them as
# one JSON string: UTF-8 as \u escapes, a byte that is not UTF-8 as
# \ufffd, so that the output is ASCII whatever the bytes.
# shellcheck disable=SC2016
JSON_AWK='
BEGIN { for (i = 0; i < 256; i++) v[sprintf("%02x", i)] = i }
{ s = s $0 }
END {
	n = length(s) / 2
	out = "\""
	i = 1
	while (i <= n) {
		b = v[substr(s, 2 * i - 1, 2)]
		if (b < 128) {
			if (b == 34) out = out "\\\""
			else if (b == 92) out = out "\\\\"
			else if (b < 32 || b == 127) out = out sprintf("\\u%04x", b)
			else out = out sprintf("%c", b)
			i++
			continue
		}
		k = 0
		if (b >= 194 && b <= 223) { k = 1; cp = b - 192; lo = 128; hi = 191 }
		else if (b >= 224 && b <= 239) { k = 2; cp = b - 224; lo = 128; hi = 191; if (b == 224) lo = 160; if (b == 237) hi = 159 }
		else if (b >= 240 && b <= 244) { k = 3; cp = b - 240; lo = 128; hi = 191; if (b == 240) lo = 144; if (b == 244) hi = 143 }
		ok = k > 0 && i + k <= n
		for (j = 1; ok && j <= k; j++) {
			c = v[substr(s, 2 * (i + j) - 1, 2)]
			if (j == 1 && (c < lo || c > hi)) ok = 0
			if (j > 1 && (c < 128 || c > 191)) ok = 0
			cp = cp * 64 + c - 128
		}
		if (!ok) { out = out "\\ufffd"; i++; continue }
		if (cp >= 65536) {
			cp -= 65536
			out = out sprintf("\\u%04x\\u%04x", 55296 + int(cp / 1024), 56320 + cp % 1024)
		} else out = out sprintf("\\u%04x", cp)
		i += k + 1
	}
	print out "\""
}'

# OCT_AWK reads bytes as hexadecimal pairs and prints them as printf %b
# escapes (\0ooo each).
# shellcheck disable=SC2016
OCT_AWK='
BEGIN { for (i = 0; i < 256; i++) v[sprintf("%02x", i)] = i }
{ s = s $0 }
END { for (i = 1; i < length(s); i += 2) printf "\\0%o", v[substr(s, i, 2)]; print "" }'

if ! command -v od >/dev/null 2>&1 || ! command -v awk >/dev/null 2>&1; then
	printf 'error: the survey needs od and awk\n' >&2
	exit 1
fi

# jhex HEX: the bytes HEX spells as a JSON string.
jhex() { printf '%s\n' "$1" | awk "$JSON_AWK"; }

# json TEXT: TEXT as a JSON string.
json() { jhex "$(printf '%s' "$1" | od -An -v -tx1 | tr -d ' \n')"; }

# hex TEXT: succeeds when TEXT is lowercase hexadecimal, pairs of digits.
hex() {
	case $1 in *[!0-9a-f]*) return 1 ;; esac
	[ $((${#1} % 2)) = 0 ]
}

# unhex HEX: the bytes HEX spells (none of them NUL, as in a path).
unhex() {
	ux=$(printf '%bx' "$(printf '%s\n' "$1" | awk "$OCT_AWK")")
	printf '%s' "${ux%x}"
}

# add NAME VALUE: a member of the object being written; VALUE is JSON.
add() { obj="$obj,\"$1\":$2"; }

# emit ID: print the object of ID's members and those added, an element
# of the list being written.
emit() {
	printf '%s{%s%s}' "$sep" "$1" "$obj"
	sep=,
}

# digits TEXT: succeeds when TEXT is a decimal number.
digits() {
	case $1 in "" | *[!0-9]*) return 1 ;; esac
}

# facts PATH: what PATH is (through a symbolic link, as docker mounts
# it), read only: where a link points, whether it exists, file or
# directory, numeric owner and mode; a file's size; a directory's disk
# usage in KiB and the number of what is not a directory in it, counted
# on its own file system (complete false when find could not read all).
facts() {
	add path "$(json "$1")"
	if [ -L "$1" ] && fl=$(readlink -- "$1" && printf x); then
		add link "$(json "${fl%?x}")"
	fi
	if [ ! -e "$1" ]; then
		add exists false
		return 0
	fi
	add exists true
	if [ -d "$1" ]; then
		add type '"directory"'
	elif [ -f "$1" ]; then
		add type '"file"'
	else
		add type '"other"'
	fi
	fo=$(stat -L -c %u:%g -- "$1" 2>/dev/null) || fo=
	digits "${fo%%:*}" && digits "${fo#*:}" && add owner "\"$fo\""
	fm=$(stat -L -c %a -- "$1" 2>/dev/null) || fm=
	case $fm in "" | *[!0-7]*) ;; *) add mode "\"$fm\"" ;; esac
	if [ -f "$1" ]; then
		fs=$(stat -L -c %s -- "$1" 2>/dev/null) || fs=
		! digits "$fs" || add bytes "$fs"
		return 0
	fi
	[ -d "$1" ] || return 0
	fk=$(du -s -k -x -- "$1/" 2>/dev/null | awk 'NR == 1 { print $1 }')
	! digits "$fk" || add usage_kib "$fk"
	fc=$( (find "$1/" -xdev ! -type d -exec printf '.%.0s\n' {} + 2>/dev/null; echo "$?") | awk '$0 == "." { n++; next } { s = $0 } END { print n + 0, s }')
	! digits "${fc% *}" || add files "${fc% *}"
	if [ "${fc#* }" = 0 ]; then add complete true; else add complete false; fi
}

# bind ID PATH: a bind's source.
bind() {
	obj=
	facts "$2"
	emit "$1"
}

# home ID REST: a bind's source in the home directory of the user, at REST.
home() {
	obj=
	if [ -z "$HOME_DIR" ]; then
		add error "$(json "no home directory found for user $SURVEY_USER: give compose2manifest survey --user")"
	else
		facts "$HOME_DIR${2:+/$2}"
	fi
	emit "$1"
}

# unlocated ID WHY: a source the survey cannot look for (WHY is JSON).
unlocated() {
	obj=
	add error "$2"
	emit "$1"
}

# located NAME: the driver of Docker volume NAME and the facts of its
# mount point, as docker volume inspect tells them.
located() {
	add volume "$(json "$1")"
	# shellcheck disable=SC2016
	lv=$(docker volume inspect --format '{{printf "%x" .Driver}}:{{printf "%x" .Mountpoint}}' -- "$1" 2>/dev/null) || {
		add error "$(json "docker knows no volume $1 (docker volume ls lists them)")"
		return 0
	}
	ld=${lv%%:*} lm=${lv#*:}
	case $lv in *:*) ;; *) ld=x ;; esac
	if ! hex "$ld" || ! hex "$lm"; then
		add error '"docker volume inspect printed what the survey did not ask for"'
		return 0
	fi
	[ -z "$ld" ] || add driver "$(jhex "$ld")"
	lp=$(unhex "$lm")
	case $lp in
	/*) facts "$lp" ;;
	*) add error '"docker volume inspect printed no mount point"' ;;
	esac
}

# volume ID NAME: a named volume, by its Docker name.
volume() {
	obj=
	if [ "$have_docker" = false ]; then
		add volume "$(json "$2")"
		add error '"docker is not installed here"'
	else
		located "$2"
	fi
	emit "$1"
}

# anonymous ID SERVICE FORMAT SERVICE_JSON: the anonymous volume that the
# one container of SERVICE in the project mounts, its name printed in
# hexadecimal by docker container inspect --format FORMAT.
anonymous() {
	obj=
	add service "$4"
	if [ "$have_docker" = false ]; then
		add error '"docker is not installed here"'
		emit "$1"
		return 0
	fi
	ai=$(docker ps -a -q --no-trunc --filter "label=com.docker.compose.project=$PROJECT" --filter "label=com.docker.compose.service=$2" 2>/dev/null) || ai=-
	case $ai in
	-) add error '"docker ps failed"' ;;
	"") add error "$(json "no container of service $2 is left to inspect (docker compose down removes them): find the volume with docker volume ls")" ;;
	*"
"*) add error "$(json "more than one container of service $2, each with an anonymous volume of its own")" ;;
	*[!0-9a-f]*) add error '"docker ps printed no container ID"' ;;
	*)
		add container "\"$ai\""
		ah=$(docker container inspect --format "$3" -- "$ai" 2>/dev/null) || ah=-
		an=
		! hex "$ah" || an=$(unhex "$ah")
		case $an in
		"") add error '"the container mounts no volume there"' ;;
		.* | -* | *[!A-Za-z0-9_.-]*) add error '"docker container inspect printed no volume name"' ;;
		*) located "$an" ;;
		esac
		;;
	esac
	emit "$1"
}

# image JSON NAME: the image's ID, User and Volumes as docker image
# inspect tells them; found false when the image is not on this host.
image() {
	obj=
	if [ "$have_docker" = false ]; then
		add error '"docker is not installed here"'
		printf '%s{"image":%s%s}' "$sep" "$1" "$obj"
		sep=,
		return 0
	fi
	# shellcheck disable=SC2016
	if ih=$(docker image inspect --format '{{printf "%x" .Id}}:{{printf "%x" .Config.User}}:{{range $k, $v := .Config.Volumes}}{{printf "%x" $k}},{{end}}' -- "$2" 2>/dev/null); then
		iid=${ih%%:*} ir=${ih#*:}
		iu=${ir%%:*} iv=${ir#*:}
		case $ih in *:*:*) ;; *) iid=x ;; esac
		case $iv in *:*) iid=x ;; esac
		il='' isep=''
		while [ -n "$iv" ] && hex "${iv%%,*}"; do
			il="$il$isep$(jhex "${iv%%,*}")" isep=,
			iv=${iv#*,}
		done
		if hex "$iid" && hex "$iu" && [ -z "$iv" ]; then
			add found true
			add id "$(jhex "$iid")"
			add user "$(jhex "$iu")"
			add volumes "[$il]"
		else
			add found true
			add error '"docker image inspect printed what the survey did not ask for"'
		fi
	else
		add found false
	fi
	printf '%s{"image":%s%s}' "$sep" "$1" "$obj"
	sep=,
}

# whose: the user whose home ~ is and that home, from getent passwd or
# /etc/passwd (HOME_DIR, "" when not found).
whose() {
	[ -n "$SURVEY_USER" ] || SURVEY_USER=${SUDO_USER:-${USER:-}}
	HOME_DIR=
	case $SURVEY_USER in "" | -* | *[!A-Za-z0-9._$-]*) return 0 ;; esac
	wl=$(getent passwd "$SURVEY_USER" 2>/dev/null) || wl=$(awk -F: -v u="$SURVEY_USER" '$1 == u { print; exit }' /etc/passwd 2>/dev/null) || wl=
	case $wl in "$SURVEY_USER":*:*:*:*:*) ;; *) return 0 ;; esac
	wh=${wl#*:*:*:*:*:}
	wh=${wh%%:*}
	case $wh in /*) HOME_DIR=$wh ;; esac
}

# containers: the project's containers as docker compose labelled them,
# and every compose project on this host.
containers() {
	# shellcheck disable=SC2016
	cl=$(docker ps -a --no-trunc --filter "label=com.docker.compose.project=$PROJECT" --format '{{.ID}}:{{printf "%x" .Names}}:{{printf "%x" (.Label "com.docker.compose.service")}}:{{printf "%x" .Image}}:{{printf "%x" (.Label "com.docker.compose.project.working_dir")}}' 2>/dev/null) || {
		printf ',"docker_error":"docker ps failed"'
		return 0
	}
	printf ',"containers":['
	sep=
	while IFS=: read -r cid cn cs ci cw; do
		[ -n "$cid" ] || continue
		case $cid in *[!0-9a-f]*) continue ;; esac
		if ! hex "$cn" || ! hex "$cs" || ! hex "$ci" || ! hex "${cw:-}"; then continue; fi
		printf '%s{"id":"%s","name":%s,"service":%s,"image":%s,"working_dir":%s}' "$sep" "$cid" "$(jhex "$cn")" "$(jhex "$cs")" "$(jhex "$ci")" "$(jhex "$cw")"
		sep=,
	done <<LIST
$cl
LIST
	printf ']'
	# shellcheck disable=SC2016
	cps=$(docker ps -a --format '{{printf "%x" (.Label "com.docker.compose.project")}}' 2>/dev/null | sort -u) || cps=
	printf ',"projects":['
	sep=
	for p in $cps; do
		hex "$p" || continue
		printf '%s%s' "$sep" "$(jhex "$p")"
		sep=,
	done
	printf ']'
}
`

// scriptTail runs the survey and prints its JSON.
const scriptTail = `
have_docker=false
if command -v docker >/dev/null 2>&1; then have_docker=true; fi
whose
printf '{"version":1,"host":%s,"date":%s,"project":%s,"user":%s' "$(json "$(uname -n)")" "$(json "$(date -u +%Y-%m-%dT%H:%M:%SZ)")" "$(json "$PROJECT")" "$(json "$SURVEY_USER")"
[ -z "$HOME_DIR" ] || printf ',"home":%s' "$(json "$HOME_DIR")"
printf ',"docker":%s' "$have_docker"
[ "$have_docker" = false ] || containers
printf ',"sources":['
sep=
sources
printf '],"images":['
sep=
images
printf ']}\n'
`
