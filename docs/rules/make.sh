#!/usr/bin/env bash
# Writes every committed rulebook again: each shipped game's player's book and implementer's
# reference, in Markdown (with its figures) and HTML, and the seed games' player's books in
# Persian and Russian. tests/test_cli.py and tests/test_player_book.py check them with --check.
set -euo pipefail
cd "$(dirname "$0")"
for game in $(python -c "from rulespec.loading import shipped_games; print(*shipped_games())"); do
  for fmt in md html; do
    python -m rulespec doc "$game" --format "$fmt" --out "$game.$fmt" 2>/dev/null
    python -m rulespec doc "$game" --reference --format "$fmt" --out "$game-reference.$fmt" 2>/dev/null
  done
done
for game in vandatta abracadabra abracadabra-newton; do
  for lang in fa ru; do
    for fmt in md html; do
      python -m rulespec doc "$game" --lang "$lang" --format "$fmt" --out "$game.$lang.$fmt" 2>/dev/null
    done
  done
done
