# user_booted: build, boot, test.  See README.md.
SHELL := /bin/bash
KERNEL ?= 7.3
export KERNEL
B := build
GUEST_CFLAGS := -static -O2 -Wall -Wextra -Iuapi

.PHONY: all setup tree kernel kernel-debug guest-bin run guest test series bisect-check robot torture gate-faults lint bench systemd-native plugin-dry-run clean distclean
all: kernel

setup:
	@scripts/setup.sh

tree: setup
	@scripts/tree.sh >/dev/null

kernel: tree
	@scripts/build-kernel.sh qemu >/dev/null

kernel-debug: tree
	@scripts/build-kernel.sh debug >/dev/null

# Static programs for the guest: the selftests and the benchmark tools.
# The kselftests include "../kselftest_harness.h": resolve it from a directory
# one level below the tree's selftests (the harness itself needs the -Wno-s).
# Always the base kernel's harness (the guest scripts pick cases with its
# -r/-f filters): the program is the same for any kernel.
KSFT := $(B)/linux-7.3/tools/testing/selftests
GB := $(B)/guest-bin
guest-bin: setup $(GB)/membarrier_lat $(GB)/bench_guest $(GB)/user_booted_test
$(GB)/%: bench/%.c
	@mkdir -p $(@D)
	@gcc $(GUEST_CFLAGS) -o $@ $<
$(GB)/user_booted_test: selftests/user_booted/user_booted_test.c uapi/linux/user_booted.h
	@[ -d $(KSFT) ] || KERNEL=7.3 scripts/tree.sh >/dev/null
	@mkdir -p $(@D)
	@gcc $(GUEST_CFLAGS) -Wno-unused-parameter -Wno-clobbered -I$(KSFT)/kselftest \
		-o $@ $< -lpthread

# README command 1: build the patched kernel, boot it, show the notification.
run: kernel guest-bin
	@scripts/initramfs.sh qemu $(B)/initramfs-demo.cpio.gz
	@scripts/qemu-run.sh -i $(B)/initramfs-demo.cpio.gz -l $(B)/demo.log -t 300 \
		-a "ub.run=demo $$(sed -n "s/^# append://p" scripts/guest/demo.sh)" ; rc=$$?; \
	sed -n '/^demo:/p;/^ok /p;/^not ok/p;/== timeline/,/UB-VERDICT/p' $(B)/demo.log | grep -v UB-VERDICT; \
	echo "full console log: $(B)/demo.log"; exit $$rc

# The inner loop (scripts/README.md): rebuild what an edit touched, boot one guest
# script: make guest T=boot-reported [FLAVOUR=debug] [KERNEL=6.12].
FLAVOUR ?= qemu
guest: tree guest-bin
	@scripts/build-kernel.sh $(FLAVOUR) >/dev/null
	@scripts/guest-one.sh $(FLAVOUR) $(T)

# README command 2: every test; ends with "N passed, N failed".
test:
	@scripts/test.sh

series: tree
	@scripts/series.sh

# Every prefix of the series builds (slow; not part of make test).
bisect-check: tree
	@scripts/bisect-check.sh

# The kernel test robot's builds of the series as sent (git am of make
# series on the pristine tree): allnoconfig, small, full, W=1 against the
# pristine tree, PREEMPT_RT, i386, arm64, every prefix (bisect-check).
# ROBOT_CONFIGS= picks some (scripts/robot.sh).  Not part of make test.
robot: setup
	@scripts/robot.sh

# rcutorture's scenarios (kvm.sh) on the series' tree, the series' boot mode
# ending mid-run (scripts/torture.sh).  Hours; not part of make test.
torture: tree
	@scripts/torture.sh

# Each gate fails on the fault it is there to catch: a 6.12 variant that no
# longer applies (lint), a new W=1 warning (robot), a prefix that does not
# build (bisect-check); scratch copies in build/gate-faults/
# (scripts/gate-faults.sh).  Builds kernels; not part of make test.
gate-faults: tree
	@scripts/gate-faults.sh

# The series' quality gates (checkpatch, kernel-doc, docs; the 6.12
# backport's series applies), as TAP.
lint: setup
	@scripts/lint.sh

# The benchmark study (bench/README.md): BOOTS= boots per arm and workload
# (default 24), results in bench/results/.  Not part of make test.  Uses
# build/bzImage as it is; builds it only if missing.
bench: setup
	@[ -f $(B)/bzImage ] || $(MAKE) --no-print-directory kernel
	@$(MAKE) --no-print-directory guest-bin
	@bench/run.sh

# PID 1 reports the end of boot itself (systemd-plugin/native/): build
# Debian's systemd with the patch (SYSTEMD_SUITE=sid, or trixie), boot it.
# Not part of make test (about 25 min on a fresh machine; scripts/README.md).
systemd-native: kernel
	@scripts/systemd-native.sh

# The systemd plugin built, installed and tested as a Debian package build
# would, in a clean chroot without the uapi header or man (root; SUITE=bookworm).
plugin-dry-run:
	@systemd-plugin/tests/package-dry-run.sh $(SUITE)

clean:
	rm -rf $(B)/obj-* $(B)/robot $(B)/bzImage* $(B)/modules-* $(B)/guest-bin $(B)/*.cpio.gz $(B)/*.log $(B)/series

distclean:
	rm -rf $(B)
