"""The language stage: a spec's text to a checked spec (:class:`~rulespec.lang.model.CheckedSpec`
with its :class:`~rulespec.lang.model.Resolution`). It runs nothing and imports only the modules
below it (:mod:`rulespec.errors`, :mod:`rulespec.spans`, :mod:`rulespec.files`,
:mod:`rulespec.shown`)."""

from rulespec.lang.checker import check, check_file, check_text
from rulespec.lang.parser import parse
from rulespec.lang.sources import parse_file

__all__ = ["check", "check_file", "check_text", "parse", "parse_file"]
