"""Simulation reports a designer acts on: win rates, scores, the first mover's advantage,
lengths, decisions and option-guarded clauses with 95% intervals, for one setting or a
comparison of several; as data (JSON) or one self-contained HTML page."""

from rulespec.report.html import comparison_page, run_page
from rulespec.report.measures import (
    Comparison,
    Difference,
    GuardedClause,
    RunReport,
    option_clauses,
)
from rulespec.report.stats import (
    Interval,
    mean_difference,
    mean_interval,
    proportion_difference,
    wilson,
)

__all__ = ["Comparison", "Difference", "GuardedClause", "Interval", "RunReport",
           "comparison_page", "mean_difference", "mean_interval", "option_clauses",
           "proportion_difference", "run_page", "wilson"]
