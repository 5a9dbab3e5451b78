#!/usr/bin/env bash
# The quick start by hand: train on breastcancer, look at the scorecard, score the rows,
# export it and check every export against the runtime. Run from the repository's root
# after `make demo` (or `pip install -e '.[all]'`).
set -euo pipefail
mkdir -p out
scorecard train examples/breastcancer.csv --target Benign --c0 0.025 --time-limit 30 -o out/breastcancer.json
scorecard show out/breastcancer.json
scorecard predict out/breastcancer.json examples/breastcancer.csv -o out/breastcancer-scored.csv
scorecard export out/breastcancer.json --format html -o out/breastcancer.html
scorecard export out/breastcancer.json --format sql --dialect duckdb -o out/breastcancer.sql
scorecard verify out/breastcancer.json --data examples/breastcancer.csv

# The same data under constraints: three features at most, a sign, a false positive limit.
scorecard train examples/breastcancer.csv --config examples/constrained.toml -o out/constrained.json
scorecard show out/constrained.json

# Cross-validation along a C0 grid, with the error-versus-size plot.
scorecard cv examples/breastcancer.csv --target Benign --folds 5 --c0-grid 0.001,0.01,0.1 \
  --time-limit 10 -o out/cv.csv --plot out/cv.svg
