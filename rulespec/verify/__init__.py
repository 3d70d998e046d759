"""Verification: an implementation played against the spec under Hypothesis, with coverage of
the spec's clauses steering between runs, and each divergence shrunk to a record.

The package is split as Hypothesis splits its engine: ``schedule`` (which settings), ``runner``
(the :class:`Verifier`: the run loop, Hypothesis's settings, the shrink budget), ``search``
(one setting's search and its test), ``match`` (one match), ``guard`` (calls into the
implementation), ``compare`` (reading its answers), ``report`` and ``coverage``."""

from rulespec.verify.compare import compare_answers, normal_key
from rulespec.verify.coverage import Coverage
from rulespec.verify.report import REPORT_FORMAT, Divergence, Report, format_report
from rulespec.verify.runner import Verifier
from rulespec.verify.schedule import MAX_EVENTS, Setting, schedule

__all__ = ["MAX_EVENTS", "REPORT_FORMAT", "Coverage", "Divergence", "Report", "Setting",
           "Verifier", "compare_answers", "format_report", "normal_key", "schedule"]
