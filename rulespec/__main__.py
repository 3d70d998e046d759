"""``python -m rulespec``: the command line, as the ``rulespec`` script runs it."""

from rulespec.cli import main

main(prog_name="rulespec")
