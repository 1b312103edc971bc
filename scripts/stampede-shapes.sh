# The benchmark's stampedes, sourced by scripts/bench-process.sh (which
# times them) and scripts/pgo.sh (which records the release CLI's profile
# on them): every strategy, and each shape as
# "label|the fragment's extra keys|scripts/stampede.mjs's KEYS GAP_US SERVERS".
# shellcheck disable=SC2034

stampede_strategies=(none get-set add keyed-mutex single-flight emitter-lock ticket-lock
    stale-while-revalidate xfetch)

# Every request at 0, one key, one server.
stampede_burst="burst||1 0 1"

# Off the burst.
stampede_off=("keys=10,gap:1us|&keys=10&arrival=gap:1us|10 1 1"
    "servers=2|&servers=2|1 0 2"
    "keys=100,gap:2us|&keys=100&arrival=gap:2us|100 2 1"
    "keys=4|&keys=4|4 0 1")
