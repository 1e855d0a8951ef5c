"""The web pages: one package per page area (its routes and forms), the presenters that
turn codes and numbers into words, and the WSGI front (poll, pages, the board cache) that
answers the busiest requests before Flask. See docs/architecture.md."""
