#!/usr/bin/env bash
# tests/render/t-palette.sh — the python and rust palettes against the rule
# they implement (tests/render/palette-rules.py says the rule and the check).
. "$(dirname "$0")/../lib.sh"
command -v python3 >/dev/null || { skip palette-rules "python3 not installed"; exit 0; }
python3 "$UF_TOP/tests/render/palette-rules.py" "$UF" "$TMP"
