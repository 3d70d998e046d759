"""The rulebook: a document built from a checked spec (and from what playing it shows), rendered
as Markdown or as one self-contained web page."""

from rulespec.book.html import to_html
from rulespec.book.markdown import to_markdown
from rulespec.book.sections import build_book, rulebook

__all__ = ["build_book", "rulebook", "to_html", "to_markdown"]
