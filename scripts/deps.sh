#!/usr/bin/env bash
# Install ptk's build (and with "test", test) dependencies from Debian.
# As root, missing packages are installed with apt-get; otherwise the exact
# apt-get line is printed and the script exits 1.
set -eu
BUILD="gcc make pkg-config libjson-c-dev libncurses-dev libnl-genl-3-dev clang llvm bpftool libbpf-dev libelf-dev libdw-dev zlib1g-dev libsqlite3-dev libmicrohttpd-dev libtracefs-dev libtraceevent-dev"
TEST="libcmocka-dev libclang-rt-14-dev procps sysstat dstat prometheus-node-exporter curl jq stress-ng fio iproute2 iptables e2fsprogs util-linux clang-format python3 tmux bpftrace libbpf-tools linux-perf gdb elfutils strace default-jdk-headless prometheus chromium libxml2-utils time sqlite3 golang-go golang-github-google-pprof-dev nodejs autoconf automake gawk trace-cmd blktrace ltrace systemtap-sdt-dev"
pkgs=$BUILD
[ "${1:-}" = test ] && pkgs="$BUILD $TEST"
missing=""
for p in $pkgs; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing="$missing $p"
done
[ -z "$missing" ] && exit 0
if [ "$(id -u)" -ne 0 ]; then
	echo "ptk: missing packages; run: sudo apt-get install -y$missing" >&2
	exit 1
fi
echo "ptk: installing$missing" >&2
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq >/dev/null
apt-get install -y -qq --no-install-recommends $missing >/dev/null
