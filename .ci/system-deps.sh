#!/usr/bin/env bash
# Install the system programs the tests run exports in, when they are missing:
# chromium (HTML printing), pdflatex with the packages the LaTeX template loads (LaTeX
# export), a CJK font (the hostile-name tests print a CJK character), pdftotext (reading
# the PDFs back), PostgreSQL 15 (the postgres SQL dialect), MariaDB (the mysql SQL dialect), a Java
# runtime (the PMML export in JPMML-Evaluator, the spark SQL dialect in pyspark). Does nothing when all are present.
# Debian/Ubuntu (apt-get); needs root or sudo only when something has to be installed.
set -euo pipefail

need=()
command -v chromium >/dev/null 2>&1 || command -v chromium-browser >/dev/null 2>&1 || need+=(chromium)
command -v pdflatex >/dev/null 2>&1 || need+=(texlive-latex-base texlive-latex-recommended texlive-latex-extra)
for sty in lmodern booktabs tabularx geometry; do
  kpsewhich "$sty.sty" >/dev/null 2>&1 || { need+=(lmodern texlive-latex-recommended); break; }
done
fc-list :lang=zh 2>/dev/null | grep -q . || need+=(fonts-wqy-zenhei)
command -v pdftotext >/dev/null 2>&1 || need+=(poppler-utils)
ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || need+=(postgresql)
{ command -v mariadbd || ls /usr/sbin/mariadbd; } >/dev/null 2>&1 || need+=(mariadb-server)
command -v java >/dev/null 2>&1 || need+=(openjdk-17-jre-headless)

if [ ${#need[@]} -eq 0 ]; then
  echo "system-deps: chromium, pdflatex and its packages, a CJK font, pdftotext, PostgreSQL, MariaDB and Java are present"
  exit 0
fi

sudo=""
if [ "$(id -u)" != 0 ]; then
  command -v sudo >/dev/null 2>&1 || { echo "system-deps: missing ${need[*]}; install them as root (apt-get install ${need[*]})" >&2; exit 1; }
  sudo="sudo"
fi
command -v apt-get >/dev/null 2>&1 || { echo "system-deps: missing ${need[*]} and no apt-get here; install them with your package manager" >&2; exit 1; }
echo "system-deps: installing ${need[*]}"
$sudo apt-get update -qq
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${need[@]}"
