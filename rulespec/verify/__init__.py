"""Verification: an implementation played against the spec under Hypothesis, with coverage of
the spec's clauses steering between runs, and each divergence shrunk to a record."""

from rulespec.verify.coverage import Coverage
from rulespec.verify.runner import (
    MAX_EVENTS,
    REPORT_FORMAT,
    Divergence,
    Report,
    Setting,
    Verifier,
    compare_answers,
    format_report,
    normal_key,
    schedule,
)

__all__ = ["MAX_EVENTS", "REPORT_FORMAT", "Coverage", "Divergence", "Report", "Setting",
           "Verifier", "compare_answers", "format_report", "normal_key", "schedule"]
