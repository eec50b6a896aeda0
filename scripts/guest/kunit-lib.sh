# kunit_run MODULE SUITE [PARAM=VALUE...]: load a KUnit test module, report
# each case of SUITE as a TAP line, unload it.  Source after lib.sh.
kunit_run() {
	mod=$1 suite=$2
	shift 2
	results=/sys/kernel/debug/kunit/$suite/results
	if ! modprobe "$mod" "$@" || [ ! -r "$results" ]; then
		not_ok "kunit: load $mod and read $results"
		return
	fi
	# Cases are the suite's indented "ok N name" lines.
	sed -n -e "s/^    ok [0-9]* \(.*\)/ok $suite: \1/p" \
	       -e "s/^    not ok [0-9]* \(.*\)/not_ok $suite: \1/p" "$results" > /tmp/cases
	[ -s /tmp/cases ] || not_ok "kunit: $suite has test cases"
	while read -r verdict name; do "$verdict" "kunit: $name"; done < /tmp/cases
	rmmod "$mod"
}
