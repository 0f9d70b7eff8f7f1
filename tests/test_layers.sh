#!/bin/sh
# test_layers.sh - the source tree's layers (doc/ARCHITECTURE.md): a file of a folder includes
# only headers of its own folder or of the folders below it, in this order (lowest first):
#   core codec cuda transport prims coll scalapack interpose tools
# so no import cycle between folders can form and no lower layer reaches up. And the size rules of
# doc/ARCHITECTURE.md: no C file under src/ over 600 lines, no function over 120 (a function runs
# from its opening brace in column 0 to the closing one, the style of the whole tree).
# Exit: 0 pass, 1 fail.
top_srcdir=${top_srcdir:-.}
order="core codec cuda transport prims coll scalapack interpose tools"
rank() { i=0; for l in $order; do [ "$l" = "$1" ] && { echo $i; return; }; i=$((i + 1)); done; echo -1; }
fail=0
checked=0
for f in $(cd "$top_srcdir" && ls src/*/*.c src/*/*.h src/*/*/*.c src/*/*/*.h cuda/*.cu cuda/*.cuh cuda/*.h cuda/*.c 2>/dev/null); do
    case $f in cuda/*) folder=cuda ;; *) folder=$(echo "$f" | cut -d/ -f2) ;; esac
    me=$(rank "$folder")
    [ "$me" -lt 0 ] && { echo "FAIL: $f: folder $folder is not in the layer order of $0"; fail=1; continue; }
    for inc in $(sed -n 's/^#include "\([a-z_]*\)\/[a-z_0-9/]*\.h".*/\1/p' "$top_srcdir/$f" | sort -u); do
        r=$(rank "$inc")
        checked=$((checked + 1))
        if [ "$r" -lt 0 ] || [ "$r" -gt "$me" ]; then
            echo "FAIL: $f ($folder) includes a header of $inc, a layer above it"
            fail=1
        fi
    done
done
for f in $(cd "$top_srcdir" && ls src/*/*.c src/*/*/*.c); do
    n=$(wc -l < "$top_srcdir/$f")
    if [ "$n" -gt 600 ]; then echo "FAIL: $f has $n lines (at most 600)"; fail=1; fi
    long=$(awk '/^\{/ { s = NR; name = prev } /^\}/ { if (s && NR - s + 1 > 120) print NR - s + 1 " lines: " name; s = 0 } { prev = $0 }' "$top_srcdir/$f")
    if [ -n "$long" ]; then echo "FAIL: $f: a function over 120 lines ($long)"; fail=1; fi
done
echo "test_layers.sh: $checked includes between folders checked, layers: $order"
echo "test_layers.sh: every C file under src/ within 600 lines, every function within 120"
[ $fail -eq 0 ] && echo "test_layers.sh: no layer includes one above it"
exit $fail
