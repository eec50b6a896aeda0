#!/bin/bash
# make series: export the series as git format-patch files in build/series/
# (the backport: build/series-6.12/), with
# series/cover-letter.txt as patch 0000.  scripts/tree.sh made the commits.
#
# The patches are signed off by whoever runs this: git config user.name and
# user.email of this repository (or the global ones), never a placeholder.
# The tree's commits carry a fixed placeholder identity (reproducible ids);
# it is replaced here, in From:, Signed-off-by: and the MAINTAINERS entry.
set -eu
. "$(dirname "$0")/lib.sh"

name=$(git -C "$TOP" config user.name || true)
email=$(git -C "$TOP" config user.email || true)
[ -n "$name" ] && [ -n "$email" ] ||
	die "make series signs off as you: set git config user.name and user.email first"
placeholder="Your Name <you@example.org>"

if [ -n "$KERNEL_SUITE" ]; then
	debver=$(cat "$BUILD/debs/linux-source-$KERNEL/.done")
else
	debver=$(dpkg-query -W -f='${Version}' "linux-source-$KERNEL")
fi

out=$BUILD/series$KSUFFIX
rm -rf "$out"
# --base: base-commit: names tree.sh's import of the Debian source, a
# reproducible id (fixed author and date); the cover letter names the
# release it stands for and says the id is local.
git -C "$TREE" -c user.name="$name" -c user.email="$email" format-patch -q --cover-letter --thread=shallow --base=base \
	-o "$out" base..series
cover=$(ls "$out"/0000-*.patch)
# The steps series.conf marks rfc go out as [PATCH RFC n/m].
i=0
while read -r a b c; do
	[ "$a" = patch ] || continue
	i=$((i + 1))
	[ "$c" = rfc ] || continue
	p=$(ls "$out"/"$(printf %04d $i)"-*.patch)
	sed -i '1,/^Subject:/s/^Subject: \[PATCH /Subject: [PATCH RFC /' "$p"
done < <(grep -v '^#' "$TOP/series.conf")
subject=$(head -n 1 "$TOP/series/cover-letter.txt")
# The release the import stands for, from its Makefile (7.3.4, not 7.3).
ver=$(git -C "$TREE" show base:Makefile | sed -n 's/^\(VERSION\|PATCHLEVEL\|SUBLEVEL\) = //p' | paste -sd .)
based="Based on Linux $ver as Debian ships it (linux-source-$KERNEL $debver: v$ver with Debian's patches); the base-commit line names a local import of that source, not an upstream commit: the package mirror this was built from serves no upstream tarball of v$ver to rebase onto."
python3 - "$cover" "$subject" "$TOP/series/cover-letter.txt" "$based" <<'PY'
import sys, textwrap
path, subject, text, based = sys.argv[1], sys.argv[2], open(sys.argv[3]).read(), textwrap.fill(sys.argv[4], 72)
body = text.split('\n', 1)[1].strip('\n') + '\n\n' + based
s = open(path).read()
s = s.replace('*** SUBJECT HERE ***', subject).replace('*** BLURB HERE ***', body)
open(path, 'w').write(s)
PY
# One sed for the identity: & and | in a name must not act as sed syntax.
esc=$(printf '%s <%s>' "$name" "$email" | sed 's/[&|\\]/\\&/g')
name_esc=$(printf '%s' "$name" | sed 's/[&|\\]/\\&/g')
# systemd's side goes to its own list: the native patch, as you, in systemd/.
mkdir "$out/systemd"
cp "$TOP"/systemd-plugin/native/*.patch "$out/systemd/"
sed -i -e "s|$placeholder|$esc|g" -e "s|^Your Name (\([0-9]*\)):\$|$name_esc (\1):|" "$out"/*.patch "$out"/systemd/*.patch
! grep -l "Your Name\|you@example.org" "$out"/*.patch "$out"/systemd/*.patch || die "placeholder identity left in the series"
ls "$out"
