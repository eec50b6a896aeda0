# The KUnit suites, loaded as modules, reported as one TAP line per case.
. /ub/lib.sh
for suite in user_booted; do
	results=/sys/kernel/debug/kunit/$suite/results
	if ! modprobe "${suite}_test" || [ ! -r "$results" ]; then
		not_ok "kunit: load ${suite}_test and read $results"
		continue
	fi
	# Cases are the suite's indented "ok N name" lines.
	sed -n -e "s/^    ok [0-9]* \(.*\)/ok $suite: \1/p" \
	       -e "s/^    not ok [0-9]* \(.*\)/not_ok $suite: \1/p" "$results" > /tmp/cases
	[ -s /tmp/cases ] || not_ok "kunit: $suite has test cases"
	while read -r verdict name; do "$verdict" "kunit: $name"; done < /tmp/cases
done
tap_done
