# make demo: set up .venv with what the demo runs (.[demo]) and run the main job: the default
#            checklist card from the raw Titanic CSV (text columns, empty cells, ages in years),
#            then the paper's breastcancer model (train, show, predict, export every format, verify, report).
# make test: set up .venv with every extra (.[all]) and the system programs the tests need,
#            start a throwaway PostgreSQL and MariaDB, run ruff and the test suite.
PYTHON ?= python3
VENV   := .venv
PY     := $(VENV)/bin/python
SC     := $(VENV)/bin/scorecard
OUT    := out
DATA   := examples/breastcancer.csv
RAW    := examples/titanic.csv
MODEL  := $(OUT)/breastcancer.json

.PHONY: demo test setup system-deps pg-stop mysql-stop clean

# One stamp per extra, so `make demo` then `make test` still installs everything the tests need.
$(VENV)/.installed-%: pyproject.toml
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install -q -e '.[$*]'
	touch $@

setup: $(VENV)/.installed-all

demo: $(VENV)/.installed-demo
	mkdir -p $(OUT)
	$(SC) train $(RAW) --target survived --positive yes --time-limit 60 -o $(OUT)/titanic.json
	$(SC) show $(OUT)/titanic.json
	$(SC) export $(OUT)/titanic.json --format html -o $(OUT)/titanic.html
	$(SC) export $(OUT)/titanic.json --format sql --dialect sqlite -o $(OUT)/titanic.sql
	$(SC) verify $(OUT)/titanic.json --data $(RAW)
	$(SC) train $(DATA) --target Benign --c0 0.025 --time-limit 30 --meta examples/breastcancer-meta.toml -o $(MODEL)
	$(SC) show $(MODEL)
	$(SC) predict $(MODEL) $(DATA) -o $(OUT)/breastcancer-scored.csv
	$(SC) export $(MODEL) --format html -o $(OUT)/breastcancer.html
	$(SC) export $(MODEL) --format latex -o $(OUT)/breastcancer.tex
	$(SC) export $(MODEL) --format python -o $(OUT)/breastcancer.py
	$(SC) export $(MODEL) --format sql --dialect sqlite -o $(OUT)/breastcancer.sql
	$(SC) export $(MODEL) --format onnx -o $(OUT)/breastcancer.onnx
	$(SC) export $(MODEL) --format onnx --onnx-input matrix -o $(OUT)/breastcancer-matrix.onnx
	$(SC) export $(MODEL) --format pmml -o $(OUT)/breastcancer.pmml
	$(SC) verify $(MODEL) --data $(DATA)
	$(SC) report $(MODEL) --data $(DATA) -o $(OUT)/breastcancer-report.html
	@echo "demo: model, scored rows and exports are in $(OUT)/"

system-deps:
	bash .ci/system-deps.sh

test: setup system-deps
	$(PY) -m ruff check .
	eval "$$(bash .ci/postgres.sh)" && eval "$$(bash .ci/mariadb.sh)" && $(PY) -m pytest

pg-stop:
	bash .ci/postgres.sh stop

mysql-stop:
	bash .ci/mariadb.sh stop

clean:
	rm -rf $(OUT) .pytest_cache
