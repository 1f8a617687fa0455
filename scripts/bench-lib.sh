# SPDX-License-Identifier: GPL-3.0-or-later
# Helpers shared by the benchmark scripts (sourced; BENCH_NAME names the
# caller in error messages).

die() { echo "${BENCH_NAME:-bench}: $*" >&2; exit 1; }
now() { date +%s.%N; }
# elapsed START END -> seconds with 3 decimals
elapsed() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.3f", b - a }'; }
# rate COUNT SECONDS -> count/s, integer
rate() { awk -v g="$1" -v s="$2" 'BEGIN { if (s > 0) printf "%.0f", g / s; else print 0 }'; }
# ratio A B -> "A/Bx" with one decimal
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.1fx", a / b; else print "n/a" }'; }
# rate_ratio N1 S1 N2 S2 -> the ratio of N1/S1 to N2/S2 with one decimal,
# from the unrounded rates (a rate of 11 a second rounded to an integer
# could move the ratio by 4%)
rate_ratio() {
    awk -v a="$1" -v s="$2" -v b="$3" -v t="$4" \
        'BEGIN { if (s > 0 && b > 0 && t > 0) printf "%.1fx", (a / s) / (b / t); else print "n/a" }'
}
# median X... -> the middle value (the lower middle of an even count)
median() { printf '%s\n' "$@" | sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
