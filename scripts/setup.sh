#!/bin/bash
# Install every package the build, the tests and the systemd plugin need.
set -eu
. "$(dirname "$0")/lib.sh"
mapfile -t plugin_deps < <(grep -v '^#' "$TOP/systemd-plugin/DEPS" 2>/dev/null || true)
need_packages "${HOST_PACKAGES[@]}" "${plugin_deps[@]}"
if [ -n "$KERNEL_SUITE" ]; then
	"$TOP/scripts/fetch-deb.sh" "$KERNEL_SUITE" "linux-source-$KERNEL" >/dev/null
fi
