"""The presenters: the one layer that turns verdicts, codes and numbers into words and
markup in the page's language (wording, charts, tables, cards, changes, the language
filters, bidi isolation, share lines)."""
