#!/bin/bash
# The inner loop: boot one guest script on the flavour's kernel, as make test
# would, and show its TAP lines.  make guest T=NAME [FLAVOUR=debug] [KERNEL=6.12]
# builds what an edit touched first (scripts/README.md "The inner loop").
#   guest-one.sh FLAVOUR NAME
set -eu
. "$(dirname "$0")/lib.sh"

flavour=$1 name=${2:-}
script=$TOP/scripts/guest/$name.sh
[ -n "$name" ] && grep -q '^# append:' "$script" 2>/dev/null ||
	die "T=$name: not a guest suite (one of: $(grep -l '^# append:' "$TOP"/scripts/guest/*.sh | xargs -n1 basename | sed 's/\.sh$//' | tr '\n' ' '))"
image=$BUILD/bzImage$KSUFFIX
[ "$flavour" = debug ] && image=$BUILD/bzImage-debug$KSUFFIX
initrd=$BUILD/initramfs-$flavour$KSUFFIX.cpio.gz log=$BUILD/guest-$name-$flavour$KSUFFIX.log
"$TOP/scripts/initramfs.sh" "$flavour" "$initrd"
rc=0
"$TOP/scripts/qemu-run.sh" -k "$image" -i "$initrd" -l "$log" -t "$GUEST_TIMEOUT" \
	-a "ub.run=$name $(sed -n 's/^# append://p' "$script")" || rc=$?
grep -E '^(not )?ok [0-9]+|^#' "$log" | grep -v '^# append' || true
echo "console log: ${log#"$TOP"/}"
exit $rc
