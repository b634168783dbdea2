# SPDX-License-Identifier: GPL-2.0
# Shared by the histogram tools' tests: the JSON schema every histogram
# object follows, and helpers to read buckets.

# check_hist_json FILE [KEY_FIELDS_JQ]: every line of FILE is a valid
# histogram object (or a lost record): interval, unit, buckets of
# consecutive bounds whose counts add up to count, sum, avg, p50 <= p90 <=
# p99; KEY_FIELDS_JQ (e.g. '.pid | type == "number"') holds for each.
check_hist_json() {
	jq -e --slurp "
		length > 0 and all(.[]; select(.type != \"lost\") |
			(.interval | type == \"number\") and
			(.unit == \"usecs\" or .unit == \"msecs\" or .unit == \"Kbytes\") and
			(.buckets | type == \"array\") and
			all(.buckets[]; (.min | type == \"number\") and
				(.max >= .min) and (.count >= 0)) and
			([.buckets[].count] | add // 0) == .count and
			(.sum | type == \"number\") and
			(.avg | type == \"number\") and
			.p50 <= .p90 and .p90 <= .p99 and
			(${2:-true}))
	" "$1" >/dev/null
}

# hist_share JSON_FILE MIN: the fraction of all counted values in buckets
# whose lower bound is at least MIN, over every object of the file.
hist_share() {
	jq -s --argjson m "$2" '
		[.[] | select(.type != "lost") | .buckets[]] as $b |
		([$b[] | .count] | add) as $all |
		if $all == 0 then 0 else
		([$b[] | select(.min >= $m) | .count] | add // 0) / $all end
	' "$1"
}

# hist_time_share JSON_FILE MIN: at least what fraction of the values' sum
# came from values in buckets whose lower bound is at least MIN, over every
# object of the file (a lower bound: each value below MIN taken as the top
# of its bucket). Waits many and short add little to it, where
# hist_share() counts each of them as much as a long one.
hist_time_share() {
	jq -s --argjson m "$2" '
		[.[] | select(.type != "lost")] as $h |
		([$h[].sum] | add) as $sum |
		([$h[].buckets[] | select(.max < $m) | .count * (.max + 1)] |
			add // 0) as $short |
		if $sum == 0 then 0 else ([$sum - $short, 0] | max) / $sum end
	' "$1"
}
