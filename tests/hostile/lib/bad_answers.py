"""An implementation for hostile verify cases: ``python3 bad_answers.py MODE``. It accepts
every ``new`` and answers every other request as MODE says:

* ``digits``: ``to_move`` is an integer of 5,000 digits (past Python's int-string limit);
* ``nested``: ``to_move`` is a list nested 990 deep (JSON readers take it; comparisons and
  reports would recurse past Python's limit);
* ``nan``: ``to_move`` is ``NaN``, which is not JSON;
* ``escapes``: writes terminal escapes (ESC, OSC, a C1 CSI) and rich markup to standard
  error, then exits.
"""

import sys

mode = sys.argv[1]
for line in sys.stdin:
    if '"quit"' in line:
        break
    if '"new"' in line:
        print('{"ok": true}', flush=True)
    elif mode == "digits":
        print('{"ok": true, "to_move": 1' + "0" * 5000 + "}", flush=True)
    elif mode == "nested":
        print('{"ok": true, "to_move": ' + "[" * 990 + "]" * 990 + "}", flush=True)
    elif mode == "nan":
        print('{"ok": true, "to_move": NaN}', flush=True)
    elif mode == "escapes":
        sys.stderr.write("\x1b[2J\x1b[31mred\x1b[0m \x1b]0;title\x07 \x9b1m [/] "
                         "[link=https://example.com]x[/link]\n")
        sys.stderr.flush()
        sys.exit(3)
