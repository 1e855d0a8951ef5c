"""The web pages: one package per page area (its routes and forms), the presenters that
turn codes and numbers into words, and the WSGI front (poll, pages, the board cache) that
answers the busiest requests before Flask. See docs/architecture.md."""

from werkzeug.wrappers import Response as _Response

#: What a page's view returns: the page, a redirect or other response, or a page with its
#: status (a refused form: 400, 409).
Page = str | _Response | tuple[str, int]
