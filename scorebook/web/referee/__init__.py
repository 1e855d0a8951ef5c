"""The referee's pages (ask whether a meld, a lay-off or a going-out is legal) and the
rule book."""
