#!/bin/sh
# timeline.sh LOG.gz...: the table's rows from make test's boot-drivers-*
# console logs: each event's kernel log time minus that of "Run /init as init
# process", in s ("-": not in the log).
for f in "$@"; do
	zcat "$f" | sed -n '/== timeline/,/UB-VERDICT/p' | awk -v f="${f##*/}" '
		function t(s) { s = $0; sub(/^[^[]*\[ */, "", s); sub(/\].*/, "", s); return s + 0 }
		function at(k) { return k in e ? sprintf("%.3f", e[k] - init + 0.0) : "-" }
		/Run \/init as init process/ { init = t() }
		/deferred probe timeout, ignoring dependency/ && !("giveup" in e) { e["giveup"] = t() }
		/Forcing sync_state\(\)/ && !("sync" in e) { e["sync"] = t() }
		/ub-unused: disabling/ && !("off" in e) { e["off"] = t() }
		/userspace boot ended/ && !("ended" in e) { e["ended"] = t() }
		END {
			printf "%s: consumer gives up %s, sync_state() forced %s, unused regulator off %s, boot ended %s\n",
				f, at("giveup"), at("sync"), at("off"), at("ended")
		}'
done
