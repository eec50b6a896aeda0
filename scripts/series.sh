#!/bin/bash
# make series: export the series as git format-patch files in build/series/
# (KERNEL=6.1: build/series-6.1/, the 6.1 variant),
# with series/cover-letter.txt as patch 0000.  scripts/tree.sh made the commits.
set -eu
. "$(dirname "$0")/lib.sh"

out=$BUILD/series$KSUFFIX
rm -rf "$out"
git -C "$TREE" -c user.name="Your Name" -c user.email=you@example.org \
	format-patch -q --cover-letter --thread=shallow -o "$out" base..series
cover=$(ls "$out"/0000-*.patch)
# Fill the cover letter's subject and blurb from series/cover-letter.txt.
subject=$(head -n 1 "$TOP/series/cover-letter.txt")
python3 - "$cover" "$subject" "$TOP/series/cover-letter.txt" <<'PY'
import sys
path, subject, text = sys.argv[1], sys.argv[2], open(sys.argv[3]).read()
body = text.split('\n', 1)[1].strip('\n')
s = open(path).read()
s = s.replace('*** SUBJECT HERE ***', subject).replace('*** BLURB HERE ***', body)
open(path, 'w').write(s)
PY
ls "$out"
