#!/bin/sh
# The judge of a walk against its limit (check_bounds()), on made-up
# tries: tests/unit-bounds.c includes scan.c, sets a limit's fastest
# and slowest try and a walk's figure, and says which warning fired.
# A memory that drifted within a run (tries 0.8-1.25x their median)
# must warn of nothing the walk did inside that range.
. tests/lib.sh

unit_tests bounds "check_bounds()" judge || exit 0
