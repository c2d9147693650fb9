# Shared helpers for test/services/*.sh (sourced, not executed).
# All servers bind to 127.0.0.1 only.

CS_CACHE="${CODESYNAPSE_SERVICES_CACHE:-$HOME/.cache/codesynapse-services}"
CS_RUN="$CS_CACHE/run"          # pid files + logs
mkdir -p "$CS_CACHE" "$CS_RUN"

log() { echo "[$(basename "$0" .sh)] $*" >&2; }
die() { echo "[$(basename "$0" .sh)] ERROR: $*" >&2; exit 1; }

# apt_install PKG...: installs Debian packages that are missing.
APT_UPDATED_FLAG="$CS_RUN/.apt-updated"
apt_install() {
  local missing=() p
  for p in "$@"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
  done
  [ ${#missing[@]} -eq 0 ] && return 0
  log "apt-get install ${missing[*]}"
  # one apt-get update per boot-ish (flag younger than 6 h)
  if [ -z "$(find "$APT_UPDATED_FLAG" -mmin -360 2>/dev/null)" ]; then
    # lock-wait: concurrent scripts may both want apt
    flock "$CS_RUN/.apt.lock" apt-get update -qq >"$CS_RUN/apt.log" 2>&1 && touch "$APT_UPDATED_FLAG"
  fi
  DEBIAN_FRONTEND=noninteractive flock "$CS_RUN/.apt.lock" \
    apt-get install -y -qq --no-install-recommends "${missing[@]}" >"$CS_RUN/apt.log" 2>&1 \
    || { tail -20 "$CS_RUN/apt.log" >&2; die "apt-get install ${missing[*]} failed"; }
}

# port_open PORT: true if something accepts TCP on 127.0.0.1:PORT
port_open() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }

# pid_alive FILE [PATTERN]: true if FILE holds the pid of a live process whose
# command line contains PATTERN (guards against a pid reused after a reboot
# or after CI ended the processes a session left running)
pid_alive() {
  local pid
  [ -f "$1" ] || return 1
  pid=$(cat "$1" 2>/dev/null) && [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null || return 1
  [ -z "${2:-}" ] || tr '\0' ' ' <"/proc/$pid/cmdline" 2>/dev/null | grep -qF -- "$2"
}

# wait_for SECONDS DESCRIPTION CMD...: polls CMD every second
wait_for() {
  local timeout=$1 what=$2; shift 2
  local start=$SECONDS
  until "$@" >/dev/null 2>&1; do
    if (( SECONDS - start >= timeout )); then return 1; fi
    sleep 1
  done
  log "$what ready after $(( SECONDS - start ))s"
}

# need_java_maven: Java 17+ and Maven from Debian if missing
need_java_maven() {
  command -v java >/dev/null 2>&1 || apt_install openjdk-17-jdk-headless
  command -v mvn >/dev/null 2>&1 || apt_install maven
  local v
  v=$(java -version 2>&1 | awk -F'"' '/version/ {print $2}' | cut -d. -f1)
  [ "${v:-0}" -ge 17 ] || die "Java 17+ needed, found '$v'"
}

# maven_build SRC_DIR NAME: copies SRC_DIR (pom.xml + src/) into a cache dir
# keyed by its content hash and runs `mvn package` there once. Serialized
# with a lock because concurrent Maven runs can corrupt a shared local repo.
# Sets BUILD_DIR.
CS_M2="$CS_CACHE/m2"
maven_build() {
  local src=$1 name=$2 hash
  hash=$(cd "$src" && { cat pom.xml; [ ! -d src ] || find src -type f | sort | xargs cat; } | sha256sum | cut -c1-12)
  BUILD_DIR="$CS_CACHE/$name-build-$hash"
  [ -f "$BUILD_DIR/.complete" ] && return 0
  (
    flock 9
    [ -f "$BUILD_DIR/.complete" ] && exit 0
    log "building $name with Maven (first run downloads jars into $CS_M2)"
    rm -rf "$BUILD_DIR" && mkdir -p "$BUILD_DIR"
    cp -r "$src/pom.xml" "$BUILD_DIR/"
    [ -d "$src/src" ] && cp -r "$src/src" "$BUILD_DIR/"
    if ! (cd "$BUILD_DIR" && mvn -q -B -Dmaven.repo.local="$CS_M2" package -DskipTests >"$BUILD_DIR/build.log" 2>&1); then
      tail -30 "$BUILD_DIR/build.log" >&2
      exit 1
    fi
    touch "$BUILD_DIR/.complete"
  ) 9>"$CS_CACHE/.maven.lock" || die "Maven build of $name failed (log: $BUILD_DIR/build.log)"
}
