"""The rulebook: a document built from a checked spec (and from what playing it shows), rendered
as Markdown or as one self-contained web page."""

from rulespec.book.docgen import build_book
from rulespec.book.document import to_markdown
from rulespec.book.html import to_html

__all__ = ["build_book", "to_html", "to_markdown"]
