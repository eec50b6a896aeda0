#!/bin/bash
# Pack an initramfs: busybox, the guest scripts, the static test binaries and
# the kernel's modules.  No network, nothing downloaded.
#   initramfs.sh FLAVOUR OUT   (FLAVOUR: qemu|debug, as for build-kernel.sh)
set -eu
. "$(dirname "$0")/lib.sh"

flavour=$1 out=$2
stage=$(mktemp -d "$BUILD/initramfs-XXXXXX")
chmod 755 "$stage"   # the guest's /: mktemp makes it 0700
trap 'rm -rf "$stage"' EXIT

mkdir -p "$stage"/{bin,sbin,proc,sys,dev,tmp,run,mnt,root,etc,ub}
cp /bin/busybox "$stage/bin/busybox"
cp "$TOP/scripts/guest/init" "$stage/init"
cp "$TOP"/scripts/guest/*.sh "$stage/ub/"
[ -d "$BUILD/guest-bin" ] && cp -a "$BUILD"/guest-bin/. "$stage/ub/"
[ -d "$BUILD/modules-$flavour$KSUFFIX/lib" ] && cp -a "$BUILD/modules-$flavour$KSUFFIX/lib" "$stage/"
# The kernel's config where distributions put it: the selftests read
# CONFIG_USER_BOOTED_REPORTED there.
for m in "$stage"/lib/modules/*/; do
	[ -f "$BUILD/obj-$KERNEL-$flavour/.config" ] && [ -d "$m" ] || continue
	mkdir -p "$stage/boot" && cp "$BUILD/obj-$KERNEL-$flavour/.config" "$stage/boot/config-$(basename "$m")"
done
echo "root:x:0:0:root:/root:/bin/sh
nobody:x:65534:65534:nobody:/:/bin/sh" > "$stage/etc/passwd"
echo "root:x:0:
nogroup:x:65534:" > "$stage/etc/group"
(cd "$stage" && find . | cpio -o -H newc -R 0:0 --quiet | gzip -1) > "$out"
