# Without user_booted_reported cgroup is stock: migrations wait for grace
# periods from init launch on (which proves boot-cgroup.sh's zero means it).
# append:
# flavour: qemu
. /ub/lib.sh
. /ub/cgroup-lib.sh

migrations 10
check "stock: 20 migrations at init wait for grace periods (saw $n)" [ "$n" -ge 10 ]
tap_done
