"""The JSON API (``/api/v1``): the referee and the scoring, for the pages' scripts
and for anyone else.  JSON in, JSON out, no CSRF token; bad input is a 400
``{"error": {"code", "message"}}`` and never a 500; a question whose meld search would
take longer than the referee allows (``SearchTooLarge``) is a 422 ``search-too-large``,
answered at once instead of holding the worker.

Every verdict carries ``legal``, ``code``, ``rules`` (ids from the rule book),
``params`` and ``message`` (the explanation in the request's language); an answer
without a verdict has a ``message`` when it has something to tell the reader (a best
arrangement found within the search's limit, not proven best).  The answers themselves
come from :mod:`scorebook.services.questions`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from flask import Blueprint, Response, current_app, jsonify, request, session

from referee import Verdict
from referee.arrange import SearchTooLarge
from scorebook.api.openapi import openapi_document
from scorebook.api.schemas import refused
from scorebook.errors import error_response
from scorebook.extensions import limiter
from scorebook.presenters.sentences import say
from scorebook.presenters.wording import explain, log_refusal_text
from scorebook.services.access import Browser, holds_membership
from scorebook.services.payloads import PayloadError, parse_json, require_object
from scorebook.services.questions import (
    QUESTIONS,
    TOO_MANY_WAYS,
    VERDICTS,
    Asked,
    Question,
    verdict_json,
)
from scorebook.services.table_log import LogRefused, played_log

bp = Blueprint("api", __name__)

def _referee_rate() -> str:
    """The limit of this request: ``REFEREE_RATE_LIMIT`` for an anonymous client, the
    higher ``REFEREE_MEMBER_RATE_LIMIT`` for a browser in a league, whose record-hand
    and live pages ask the referee at almost every tap (and whose phones often share
    one address at home).  Read from the signed session alone, with no statement: a
    member's question costs what an anonymous one does (anyone may become a member of
    a league of their own, so checking the membership would guard nothing)."""
    config = current_app.config
    if holds_membership(Browser(session)):
        return str(config["REFEREE_MEMBER_RATE_LIMIT"])
    return str(config["REFEREE_RATE_LIMIT"])


#: One count per client address for every question.
referee_limit = limiter.shared_limit(_referee_rate, scope="referee")


def json_endpoint(path: str, question: Question) -> Callable[[], Response]:
    """A view that parses the JSON body, checks it against the question's model
    (:mod:`scorebook.api.schemas`, from which the OpenAPI document is generated), asks
    ``question`` and answers its dict as JSON; a :class:`PayloadError` becomes a 400
    that says what is wrong, a search too large to answer in time a 422."""

    @referee_limit
    def view() -> Response:
        try:
            if not request.is_json:
                raise PayloadError("invalid-json", "send a JSON object with Content-Type "
                                                   "application/json")
            body = parse_json(request.get_data(cache=False))  # a 413 past the body limit
            body = dict(require_object(body))
            refusal = refused(path, body)
            if refusal is not None:
                # the question's own parsing names what is wrong (the token, the field),
                # as it always has; the model's refusal stands if it names nothing
                try:
                    question(body)
                except PayloadError as exc:
                    refusal = exc
                except SearchTooLarge:
                    pass
                raise refusal
            return jsonify(question(body))
        except PayloadError as exc:
            response = error_response(exc.status, exc.message, exc.code)
            if exc.rules:  # the rule the refusal rests on (out.empty-hand)
                body = response.get_json()
                body["error"]["rules"] = list(exc.rules)
                response.set_data(jsonify(body).get_data())
            return response
        except SearchTooLarge:
            return error_response(422, say(TOO_MANY_WAYS), "search-too-large")

    view.__name__ = question.__name__
    return view


def answered(ask: Asked) -> Question:
    """A referee question as the API answers it: the verdict with its ``message`` in the
    request's language (its parameters as ``params`` writes them), then the rest."""

    def question(body: dict[str, Any]) -> dict[str, Any]:
        verdict, rest = ask(body)
        return {**verdict_json(verdict), "message": explain(verdict, plain=True), **rest}

    question.__name__ = ask.__name__
    question.__doc__ = ask.__doc__
    return question


def noted(question: Question) -> Question:
    """A question whose answer may carry a ``note`` (a sentence for the reader, such as
    "/arrange stopped looking: this is the best it found"): the API words it as
    ``message``, in the request's language."""

    def ask(body: dict[str, Any]) -> dict[str, Any]:
        answer = question(body)
        note = answer.pop("note", None)
        if note is not None:
            answer["message"] = say(note)
        return answer

    ask.__name__ = question.__name__
    ask.__doc__ = question.__doc__
    return ask


_ANSWERS: dict[str, Question] = {path: answered(ask) for path, ask in VERDICTS.items()}
_NOTED: dict[str, Question] = {path: noted(question) for path, question in QUESTIONS.items()}
for _path, _question in {**_ANSWERS, **_NOTED}.items():
    bp.add_url_rule(f"/{_path}", endpoint=_path.replace("/", "_").replace("-", "_"),
                    view_func=json_endpoint(_path, _question), methods=["POST"])


def worded(value: Any) -> Any:
    """An answer with every referee verdict in it as the API gives one: with its
    ``message`` in the request's language."""
    if isinstance(value, Verdict):
        return {**verdict_json(value), "message": explain(value, plain=True)}
    if isinstance(value, dict):
        return {key: worded(item) for key, item in value.items()}
    if isinstance(value, list):
        return [worded(item) for item in value]
    return value


def table_log(body: dict[str, Any]) -> dict[str, Any]:
    """A played hand replayed from its deal and log (:mod:`scorebook.services.table_log`),
    every verdict worded; a log that cannot be a hand is refused with the move's number
    and the referee's reason, in the request's language."""
    try:
        return dict(worded(played_log(body)))
    except LogRefused as exc:
        raise PayloadError(exc.code, log_refusal_text(exc.verdict, exc.step),
                           rules=exc.rules) from exc


bp.add_url_rule("/referee/log", endpoint="referee_log",
                view_func=json_endpoint("referee/log", table_log), methods=["POST"])


@bp.get("/openapi.json")
def openapi() -> Response:
    return jsonify(openapi_document())
