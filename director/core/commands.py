"""One registry of commands: every change the app makes, from a form, htmx or the JSON API.

A command is declared once, in its area's ``commands.py``: its name, its declared input (a
``director.core.contract.Input``), the roles that may call it, a sentence saying what it does,
and what it does. A command on an event stream (a tournament, a cash session, the club's
ledger) is a function of the stream's state and the input that yields the events to record
(:func:`stream_command`): each event is checked by the engine against the state the previous
one left, and the generator is handed that state back (so a rebuy's seat is drawn from the
state after the rebuy). Another write (the players' database, a season, the host's chips)
is a function of a :class:`Call` and the input that writes through the unit of work it is
given (:func:`command`).

Pages and the JSON API reach a command the same way, :func:`perform`: its input is read
from the JSON body, or from the form (a command whose form is shaped otherwise says how to
read it: ``form``), validated with the same bounds and words, then the command runs in one
unit of work (``director.core.work``), which claims the request's command id. The JSON
routes are declared with ``Api.command`` (``director.core.contract``): the OpenAPI
document's body, roles and summary come from here.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Generator, Iterable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar

from flask import Blueprint, request
from pydantic import BaseModel
from sqlite_utils import Database
from werkzeug.datastructures import MultiDict

from director.core import roles as who
from director.core.contract import NAMERS, Api, Input, Names, names_for, read
from director.core.roles import DIRECTOR
from director.core.store import load_state
from director.core.work import Work, unit_of_work

S = TypeVar("S")
In = TypeVar("In", bound=Input)

ROLES = (DIRECTOR,)
"""Who may call a command unless it says otherwise: the director alone (``director.core.roles``
lists the others: the floor, a table's dealer, a cash table's dealer)."""

Events = Generator[tuple[str, Mapping[str, Any]], Any, Any]
"""What a stream command yields: ``(type, payload)`` for each event; it is sent back the state
after that event, and may return what it says (a notice)."""


@dataclass
class Call:
    """What a command is given besides its input: the database, the time, the ids in the
    request's path (``tournament_id``, ``table``...) and, for what it draws, a random source."""

    db: Database
    now: float
    ids: Mapping[str, Any] = field(default_factory=dict)
    rng: random.Random | None = None

    def random(self) -> random.Random:
        return self.rng or random.Random()


@dataclass(frozen=True)
class Outcome(Generic[S]):
    """A command done: the stream's state after it (or what the command returns), and what
    it says."""

    state: S
    said: str | None = None


@dataclass(frozen=True)
class Command:
    name: str
    input: type[Input]
    run: Callable[[Call, Any], Any]
    summary: str
    roles: tuple[str, ...] = ROLES
    form: Callable[[MultiDict[str, str]], dict[str, Any]] | None = None
    """How a page's form is read into the input's fields, when it is shaped otherwise (a
    ticked list of players, a field per player)."""


REGISTRY: dict[str, Command] = {}
"""Every command, by name (``area.verb``)."""


def _tournament_names(db: Any, tournament_id: int) -> Names:
    """A tournament's players' names by id, for a refusal that names one of them."""
    known = {str(p.id): p.name for p in load_state(db, tournament_id).players}
    return known.get


NAMERS["tournament_id"] = _tournament_names


def _register(cmd: Command) -> Command:
    if cmd.name in REGISTRY:
        raise LookupError(f"The command {cmd.name} is registered twice.")
    REGISTRY[cmd.name] = cmd
    return cmd


def command(
    name: str, input: type[In], summary: str, *, roles: tuple[str, ...] = ROLES,
    form: Callable[[MultiDict[str, str]], dict[str, Any]] | None = None,
) -> Callable[[Callable[[Work, Call, In], Any]], Command]:
    """Declare a command that writes outside the event streams: ``do(work, call, data)`` runs
    inside the unit of work (one transaction, the request's command id claimed)."""

    def declare(do: Callable[[Work, Call, In], Any]) -> Command:
        def run(call: Call, data: In) -> Any:
            with unit_of_work(call.db) as work:
                return do(work, call, data)

        return _register(Command(name, input, run, summary, roles, form))

    return declare


def stream_command(
    name: str, input: type[In], summary: str, *, stream: Any, id: str | Callable[[Call], int],
    roles: tuple[str, ...] = ROLES, form: Callable[[MultiDict[str, str]], dict[str, Any]] | None = None,
    independent: Callable[[Call, In], Callable[[Any], bool] | None] | None = None,
) -> Callable[[Callable[[Any, In, Call], Events]], Command]:
    """Declare a command on an event stream of ``stream`` (a ``director.core.store.Kind``)
    whose id is the path's ``id`` (or what ``id(call)`` says: the club's one ledger):
    ``decide(state, data, call)`` yields its events. A page
    drawn at an older ``expected_seq`` is stale (409), unless every event since is
    ``independent`` of this command (the hands at the other tables, for a dealer)."""

    def declare(decide: Callable[[Any, In, Call], Events]) -> Command:
        def run(call: Call, data: In) -> Outcome[Any]:
            alone = independent(call, data) if independent is not None else None
            stream_id = id(call) if callable(id) else int(call.ids[id])
            with record(call, stream, stream_id, getattr(data, "expected_seq", None), alone) as writer:
                before = writer.state
                said = drive(decide(writer.state, data, call), writer)
                for follows in FOLLOWS.get(stream.name, ()):  # what the rules add after the command's own
                    for event in follows(before, writer.state):
                        writer.add(*event)
            return Outcome(writer.state, said)

        return _register(Command(name, input, run, summary, roles, form))

    return declare


FOLLOWS: dict[str, list[Callable[[Any, Any], Iterable[tuple[str, dict[str, Any]]]]]] = {}
"""Per kind of stream, the rules that add events after any command's own, from the state
before and after it (hand for hand ends when the bubble bursts): the area that owns the
rule registers it (:func:`follow`)."""


def follow(kind: str, rule: Callable[[Any, Any], Iterable[tuple[str, dict[str, Any]]]]) -> None:
    FOLLOWS.setdefault(kind, []).append(rule)


@contextmanager
def record(call: Call, kind: Any, stream_id: int, expected_seq: int | None,
           independent: Callable[[Any], bool] | None = None) -> Iterator[Any]:
    """The events of one command on one stream, written in its unit of work."""
    from director.core import store

    with store.command(call.db, kind, stream_id, expected_seq, call.now, independent) as writer:
        yield writer


def drive(events: Events, writer: Any) -> Any:
    """Write each event the generator yields, sending it the state that event left; returns
    what the generator returns."""
    try:
        event = next(events)
        while True:
            state = writer.add(*event)
            event = events.send(state)
    except StopIteration as done:
        return done.value




def perform(name: str | Command, data: Mapping[str, Any] | None = None, *, now: float | None = None,
            rng: random.Random | None = None, db: Database | None = None, **ids: Any) -> Any:
    """Run a command from the request (or ``data``): its input read and checked, then done in
    one unit of work. Returns what the command returns (an :class:`Outcome` for a stream)."""
    from director.core.db import get_db
    from director.core.web import now as clock

    cmd = REGISTRY[name] if isinstance(name, str) else name
    who.check(cmd.name, cmd.summary, cmd.roles, ids)
    names = names_for(ids)
    if data is None and cmd.form is not None and not request.is_json:  # the page's form, read its own way
        given = read(cmd.input, cmd.form(request.form), keep_blank=True, names=names)
    else:
        given = read(cmd.input, data, names=names)
    call = Call(db if db is not None else get_db(), clock() if now is None else now, ids, rng)
    return cmd.run(call, given)


def run(name: str | Command, data: Input, *, db: Database, now: float, rng: random.Random | None = None,
        **ids: Any) -> Any:
    """Run a command with an input already made (the demo, the tests, the command line)."""
    cmd = REGISTRY[name] if isinstance(name, str) else name
    return cmd.run(Call(db, now, ids, rng), data)


# --- the routes: a page's and the API's way to a command ------------------------------------------

Respond = Callable[..., Any]


def page_route(bp: Blueprint, rule: str, cmd: Command, respond: Callable[..., Any], *, endpoint: str) -> None:
    """``POST rule`` on a page runs ``cmd`` from its form; ``respond(do, **ids)`` answers the
    way the page does (its partial to htmx, a redirect to a plain browser, the refusal
    re-rendered), ``do`` running the command and returning its outcome."""
    from director.core.auth import role_required

    def view(**ids: Any) -> Any:
        return respond(lambda: perform(cmd, **ids), **ids)

    view.__name__ = endpoint
    bp.add_url_rule(rule, endpoint, role_required(view), methods=["POST"])


def api_route(api: Api, rule: str, cmd: Command, answer: Callable[..., Any], *, result: type[BaseModel],
              status: int = 201, errors: tuple[int, ...] | None = None, endpoint: str) -> None:
    """``POST rule`` in the JSON API runs ``cmd`` from the body its input declares (the OpenAPI
    document's body, summary and roles are the command's); ``answer(outcome, **ids)`` is the
    answer."""
    from director.core.db import get_db
    from director.core.web import now

    def view(data: Input, **ids: Any) -> Any:
        return answer(cmd.run(Call(get_db(), now(), ids), data), **ids)

    view.__name__ = endpoint
    extra = {"errors": errors} if errors is not None else {}
    api.post(rule, summary=cmd.summary, body=cmd.input, result=result, status=status, endpoint=endpoint,
             roles=cmd.roles, guard=lambda ids: who.check(cmd.name, cmd.summary, cmd.roles, ids), **extra)(view)


__all__ = [
    "DIRECTOR", "FOLLOWS", "REGISTRY", "ROLES", "Call", "Command", "Events", "Outcome", "api_route", "command", "drive",
    "follow", "page_route", "perform", "record", "run", "stream_command",
]
