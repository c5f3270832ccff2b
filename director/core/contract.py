"""Declared inputs, and the JSON API's operations with the OpenAPI document made from them.

Every request body, JSON or form, is a pydantic model (``Input`` and its subclasses), declared
once with the types and bounds of its fields (``engine.limits``). The pages and the API read
it through ``read(Model)``: a refusal names the field and its limit, in a sentence a director
can read aloud (``InvalidInput``, 422); nothing is recorded.

``Api(bp, tag)`` registers a blueprint's JSON routes with what the document needs: the
summary, the body's model, the answer's model and status, who may call it. ``document(app)``
builds the OpenAPI 3.1 document from those registrations and the app's URL map, so the
document cannot drift from the code: a route without its operation is an error there.

Why pydantic: it validates and writes the JSON Schema from the same class, its messages
carry the field and the bound (``ctx``), and Flask's ecosystem has no form-and-JSON
validator of that quality that does not also take over routing.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Annotated, Any, TypeVar, get_args, get_origin

from flask import Blueprint, Flask, jsonify, request
from flask.typing import ResponseReturnValue
from pydantic import (
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    TypeAdapter,
    ValidationError,
    WithJsonSchema,
)
from werkzeug.exceptions import NotFound
from werkzeug.routing import IntegerConverter, Map

from director.core.auth import login_required, role_required
from director.core.i18n import gettext
from director.core.roles import ANYONE, DIRECTOR, FLOOR
from director.core.words import say
from engine.errors import N_, InvalidInput, Message, Term
from engine.limits import (
    MAX_CHIPS,
    MAX_ID,
    MAX_LEVEL,
    MAX_MONEY,
    MAX_NAME,
    MAX_PLAYERS,
    MAX_SEAT,
    MAX_SECONDS,
    MAX_TABLE,
    MAX_TEXT,
)

M = TypeVar("M", bound=BaseModel)

# --- the bounded types ----------------------------------------------------------------------


def _whole_number(value: Any) -> Any:
    """Before pydantic's own check: "1,000" and " 20 " are numbers; true is not."""
    if isinstance(value, bool):
        raise ValueError("a whole number, not true or false")
    if isinstance(value, str):
        return value.strip().replace(",", "").replace("_", "")
    return value


def flag(value: Any) -> bool:
    """A tick as forms and clients send it: true, "true", "1", "on" or "yes"; anything else is no."""
    return value is True or str(value).strip().lower() in ("true", "1", "on", "yes")


def _lower(value: Any) -> Any:
    """A word as typed: "Fold" is "fold"."""
    return value.strip().lower() if isinstance(value, str) else value


def _text(value: Any) -> Any:
    """Spaces tidied: the name " Ann   Lee " is "Ann Lee"."""
    return " ".join(value.split()) if isinstance(value, str) else value


def number(minimum: int, maximum: int, description: str | None = None) -> Any:
    """A whole number within bounds (a type for ``Annotated``)."""
    return Annotated[int, BeforeValidator(_whole_number), Field(ge=minimum, le=maximum, description=description)]


Id = number(0, MAX_ID)
Chips = number(0, MAX_CHIPS)
PositiveChips = number(1, MAX_CHIPS)
Money = number(0, MAX_MONEY)
Level = number(0, MAX_LEVEL)
Table = number(1, MAX_TABLE)
Seat = number(1, MAX_SEAT)
Seconds = number(0, MAX_SECONDS)
SignedSeconds = number(-MAX_SECONDS, MAX_SECONDS)
Name = Annotated[str, BeforeValidator(_text), Field(max_length=MAX_NAME)]
Flag = Annotated[bool, BeforeValidator(flag)]
Word = BeforeValidator(_lower)
Text = Annotated[str, BeforeValidator(_text), Field(max_length=MAX_TEXT)]
Password = Annotated[str, Field(max_length=200)]


def many(item: Any, maximum: int = MAX_PLAYERS) -> Any:
    """A list of at most ``maximum`` items."""
    return Annotated[list[item], Field(max_length=maximum)]  # type: ignore[valid-type]


class _OneOrMany:
    """Marks a list field that also takes one item alone (its errors then name no index)."""


ONE_OR_MANY = _OneOrMany()


def _as_list(value: Any) -> Any:
    return value if isinstance(value, list) else [value]


def one_or_many(item: Any, maximum: int) -> Any:
    """One item, or a list of at most ``maximum`` (read as a list)."""
    schema = TypeAdapter(item).json_schema()
    return Annotated[
        list[item],  # type: ignore[valid-type]
        BeforeValidator(_as_list),
        Field(max_length=maximum),
        WithJsonSchema({"anyOf": [schema, {"type": "array", "items": schema, "maxItems": maximum}]}),
        ONE_OR_MANY,
    ]


def _takes_one(annotation: Any) -> bool:
    for arg in (annotation, *get_args(annotation)):
        if get_origin(arg) is Annotated and ONE_OR_MANY in get_args(arg)[1:]:
            return True
    return False


class Input(BaseModel):
    """A request's fields. Unknown fields are ignored (a form's ``csrf_token``, a client's extras)."""

    model_config = ConfigDict(extra="ignore", frozen=True)

    def given(self) -> dict[str, Any]:
        """The fields the caller gave, validated (what a service that takes a mapping reads)."""
        return self.model_dump(mode="json", exclude_unset=True)


Seq = number(0, MAX_ID, "The sequence number your view was based on; a stale one is refused "
             "with 409. Leave it out to act on the current state.")


class Write(Input):
    """A write based on a page: a stale ``expected_seq`` is refused with 409."""

    expected_seq: Seq | None = Field(None, title=N_("expected sequence number"))


# --- reading ----------------------------------------------------------------------------------


def fields_of(data: Mapping[str, Any] | None = None, keep_blank: bool = False) -> dict[str, Any]:
    """The request's fields: the JSON object or the form, without its blank fields (a blank
    field is one left out, as the hand-written parsing always read it: ``"seconds": ""`` is
    the default minute)."""
    if data is not None:
        raw = dict(data)
    elif request.is_json:
        raw = request.get_json(silent=True)
        if not isinstance(raw, dict):
            raise InvalidInput("The request body must be a JSON object.")
    else:
        raw = request.form.to_dict()
    if keep_blank:
        return raw
    return {k: v for k, v in raw.items() if not (isinstance(v, str) and not v.strip())}


Names = Callable[[str], "str | None"]
"""A player's name from his id (as a field's key gives it), where the request concerns a
tournament: a refusal names the player, not his number."""

PLAYER_KEYS = {"x-keys": "player"}
"""A mapping field's ``json_schema_extra`` whose keys are player ids (the stacks of a bust):
a refusal of one of its values names the player."""

NAMERS: dict[str, Callable[[Any, int], Names]] = {}
"""By a path's id (``tournament_id``): the players' names of that stream, given the database
and the id (``director.core.commands`` registers the tournament's)."""


def names_for(ids: Mapping[str, Any]) -> Callable[[], Names | None]:
    """Where a refusal of the request whose path has ``ids`` finds its players' names (looked
    up only for a refusal)."""
    def names() -> Names | None:
        from director.core.db import get_db

        for key, namer in NAMERS.items():
            if key in ids:
                return namer(get_db(), int(ids[key]))
        return None

    return names


def read(model: type[M], data: Mapping[str, Any] | None = None, keep_blank: bool = False,
         names: Callable[[], Names | None] | None = None) -> M:
    """The request's fields as ``model``, or ``InvalidInput`` naming the field and its limit
    (``keep_blank``: the fields as given, a form's own reading having said what a blank is;
    ``names``: where to find the players' names, asked only for a refusal)."""
    try:
        return model.model_validate(fields_of(data, keep_blank))
    except ValidationError as error:
        raise InvalidInput("{refusal}", refusal=explain(error, model, names() if names else None)) from None


#: The labels of fields without a title (a field's own name, spaced), for the catalogues.
UNTITLED = (
    N_("request"), N_("type"), N_("ante"), N_("minutes"), N_("hands"), N_("colour up"), N_("name"), N_("items"),
    N_("hand cap"), N_("repeat doubling"), N_("denominations"), N_("ante kind"), N_("rebuy when"),
    N_("payout kind"), N_("percentages"), N_("league formula"), N_("preset"), N_("structure"), N_("based on"),
    N_("chip set"), N_("action"), N_("kind"), N_("chips"), N_("string bet"), N_("board"), N_("cards"),
    N_("seats"), N_("stake"), N_("small blind"), N_("big blind"), N_("newcomers"), N_("tables"), N_("reason"),
    N_("on"), N_("next"), N_("password"), N_("confirm"), N_("value"), N_("colour"), N_("count"),
)

#: pydantic's own words for the errors ``explain`` has no sentence of its own for.
PYDANTIC_WORDS = (
    N_("Input should be a valid number, unable to parse string as a number"),
    N_("Input should be a valid number"),
    N_("Invalid JSON"),
    N_("Input should be a finite number"),
    N_("Input should be a valid string"),
    N_("Input should be a valid dictionary"),
    N_("String should match pattern '^#[0-9a-fA-F]{6}$'"),
    N_("Input should be a valid integer"),
    N_("Input should be a valid boolean"),
    N_("Field required"),
)


def _label(model: type[BaseModel], loc: tuple[int | str, ...], names: Names | None = None) -> Term | Message:
    if not loc:
        return Term("request")
    name = str(loc[0])
    info = model.model_fields.get(name)
    label = Term(info.title if info is not None and info.title else name.replace("_", " "))
    if loc[1:] == (0,) and info is not None and _takes_one(info.annotation):
        return label  # one player given alone: the index is the caller's own value
    if len(loc) > 1 and names is not None and info is not None and info.json_schema_extra == PLAYER_KEYS:
        player = names(str(loc[1]))
        if player:
            return Message("{label} of {name}", label=label, name=player)
    if len(loc) > 1:
        return Message("{label} ({where})", label=label, where=", ".join(str(part) for part in loc[1:]))
    return label


def _shown(value: Any) -> int | str:
    """A value as the refusal quotes it: a whole number (written the reader's way), else its repr."""
    if isinstance(value, str) and re.fullmatch(r"-?\d{1,40}", value.strip().replace(",", "")):
        value = int(value.strip().replace(",", ""))  # a form's number, as typed: said as a number
    if isinstance(value, int) and not isinstance(value, bool):
        return value if abs(value) < 10**15 else f"{value:,}"  # beyond what a number is read aloud as
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def _reason(error: Exception) -> Message | str:
    """A validator's own sentence (a ``Message`` keeps its values for the reader's language)."""
    said = error.args[0] if error.args else ""
    return said if isinstance(said, Message) else str(error)


def sentence(model: type[BaseModel], item: Any, names: Names | None = None) -> Message:
    """One of pydantic's errors as a sentence (English as ``str``; its id and values for the
    reader's language)."""
    label = _label(model, tuple(item["loc"]), names)
    kind, ctx, given = item["type"], item.get("ctx") or {}, item.get("input")
    info = model.model_fields.get(str(item["loc"][0])) if item["loc"] else None
    extra = info.json_schema_extra if info is not None and isinstance(info.json_schema_extra, dict) else {}
    if kind != "missing" and extra.get("x-refusal"):
        return Message("{refusal}", refusal=Term(str(extra["x-refusal"])))
    if kind == "value_error" and str(ctx.get("error", "")).endswith("."):
        return Message("{refusal}", refusal=_reason(ctx["error"]))  # a validator's own sentence
    if kind == "missing":
        return Message("The {label} is missing.", label=label)
    if kind in ("int_parsing", "int_type", "int_from_float") or "whole number" in item["msg"]:
        return Message("The {label} must be a whole number, not {value}.", label=label, value=_shown(given))
    if kind in ("greater_than_equal", "greater_than"):
        bound = ctx.get("ge", ctx.get("gt"))
        return Message("The {label} must be at least {bound}, not {value}.", label=label, bound=_shown(bound),
                       value=_shown(given))
    if kind in ("less_than_equal", "less_than"):
        bound = ctx.get("le", ctx.get("lt"))
        return Message("The {label} must be at most {bound}, not {value}.", label=label, bound=_shown(bound),
                       value=_shown(given))
    if kind == "string_too_long" or (kind == "too_long" and isinstance(given, str)):
        return Message("The {label} is too long: at most {most} characters, not {count}.", label=label,
                       most=str(ctx["max_length"]), count=str(len(str(given))))
    if kind == "string_too_short":
        return Message("The {label} is empty.", label=label)
    if kind == "too_long":
        return Message("The {label} has too many items: at most {most}.", label=label, most=ctx["max_length"])
    if kind == "too_short":
        return Message("The {label} needs at least {least} item(s).", label=label, least=str(ctx["min_length"]))
    if kind == "string_type":
        return Message("The {label} must be text, not {value}.", label=label, value=_shown(given))
    if kind in ("bool_type", "bool_parsing"):
        return Message("The {label} must be true or false, not {value}.", label=label, value=_shown(given))
    if kind == "list_type":
        return Message("The {label} must be a list, not {value}.", label=label, value=_shown(given))
    if kind in ("dict_type", "model_type", "model_attributes_type"):
        return Message("The {label} must be an object (a JSON mapping), not {value}.", label=label,
                       value=_shown(given))
    if kind in ("union_tag_invalid", "union_tag_not_found"):
        tags, which = ctx.get("expected_tags"), str(ctx.get("discriminator", "type")).strip("'")
        if tags:
            return Message("The {label} must have a {which} of {tags}, not {value}.", label=label, which=which,
                           tags=str(tags), value=_shown(ctx.get("tag")))
        return Message("The {label} has no {which}: say what it is.", label=label, which=which)
    if kind in ("literal_error", "enum"):
        return Message("The {label} must be one of {expected}, not {value}.", label=label,
                       expected=str(ctx.get("expected", "")), value=_shown(given))
    return Message("The {label} is not right: {reason}.", label=label, reason=Term(str(item["msg"])))


def explain(error: ValidationError, model: type[BaseModel], names: Names | None = None) -> Message:
    """pydantic's errors as sentences, every one of them (up to :data:`MOST_SAID`): "The starting
    stack must be at most 1,000,000,000, not 10^30" (a ``Message``: English as ``str``, the
    reader's language through ``say``)."""
    said = [sentence(model, item, names) for item in error.errors()[:MOST_SAID]]
    if not said:
        return Message("{refusal}", refusal="")
    whole = said[0]
    for more in said[1:]:
        whole = Message("{first} {second}", first=whole, second=more)
    return whole


MOST_SAID = 12
"""The most problems one refusal lists (a form has a dozen fields at most that a host fills)."""


# --- ids in URLs ------------------------------------------------------------------------------


class IdConverter(IntegerConverter):
    """``<int:...>`` in every route: a whole number up to SQLite's largest, else 404."""

    def __init__(self, url_map: Map, fixed_digits: int = 0, min: int | None = None,
                 max: int | None = MAX_ID, signed: bool = False) -> None:
        super().__init__(url_map, fixed_digits, min, max, signed)

    def to_python(self, value: str) -> int:
        number = int(value)
        if number > MAX_ID:  # no such thing: not found (not "method not allowed" from the next rule)
            raise NotFound()
        return super().to_python(value)  # type: ignore[no-any-return]


def init_app(app: Flask) -> None:
    """Before the blueprints are registered: bounded ids in every route."""
    app.url_map.converters["int"] = IdConverter


# --- operations ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class Operation:
    """One JSON route as the document describes it."""

    method: str
    summary: str
    tag: str
    body: type[Input] | None = None
    result: type[BaseModel] | None = None
    status: int = 200
    login: bool = False
    csrf: bool = False
    errors: tuple[int, ...] = ()
    description: str | None = None
    produces: str | None = None
    """A file's media type, for an answer that is a file (a backup) rather than JSON."""
    files: tuple[str, ...] = ()
    """Fields of the body that are files: the body is then a multipart form (a restore)."""
    roles: tuple[str, ...] = ()
    """Who may call it: a registered command's roles (``director.core.commands``); else the
    director alone for a write, and for a read what its login lets in (:func:`readers`)."""
    guard: Callable[[dict[str, Any]], None] | None = field(default=None, compare=False, repr=False)
    """Refuses a caller outside ``roles`` (given the path's ids) before the body is read."""


def readers(rule: str, login: bool) -> tuple[str, ...]:
    """Who may read a route of the JSON API: anyone without a login; with one, the director,
    and the floor a night's own (``director.core.auth.login_required``: a read under its
    tournament). A read the director keeps (``director_required``) says so itself."""
    if not login:
        return (ANYONE,)
    return (DIRECTOR, FLOOR) if "<int:tournament_id>" in rule else (DIRECTOR,)


OPERATIONS: dict[str, Operation] = {}
"""``endpoint -> operation``, for every route registered through ``Api``."""

UNDOCUMENTED: set[str] = set()
"""The endpoints that only refuse an unknown action with its message (``Api.unknown``)."""

WRITE_ERRORS = (400, 401, 404, 409, 422)


class Error(BaseModel):
    """Every refusal: a sentence to read aloud, with a 4xx status."""

    error: str


class RecordedAlready(BaseModel):
    """A retry of a command whose answer was not kept (it held a secret, such as a link's
    code, or the server stopped before answering): recorded once already, nothing more."""

    notice: str


@dataclass
class Api:
    """A blueprint's JSON routes, each with its operation (see the module docstring)."""

    bp: Blueprint
    tag: str
    prefix: str = ""
    endpoints: list[str] = field(default_factory=list)

    def get(self, rule: str, *, summary: str, result: type[BaseModel] | None = None, login: bool = False,
            errors: tuple[int, ...] = (404,), endpoint: str | None = None, description: str | None = None,
            produces: str | None = None, roles: tuple[str, ...] | None = None,
            ) -> Callable[[Callable[..., ResponseReturnValue]], Callable[..., ResponseReturnValue]]:
        operation = Operation("get", summary, self.tag, None, result, 200, login, False,
                              tuple(sorted({*errors, *((401,) if login else ())})), description, produces,
                              roles=roles or readers(self.prefix + rule, login))
        return self._route(rule, operation, endpoint)

    def post(self, rule: str, *, summary: str, body: type[Input] | None = None,
             result: type[BaseModel] | None = None, status: int = 201, login: bool = True,
             errors: tuple[int, ...] = WRITE_ERRORS, endpoint: str | None = None, description: str | None = None,
             files: tuple[str, ...] = (), roles: tuple[str, ...] = (),
             guard: Callable[[dict[str, Any]], None] | None = None) -> Callable[[Callable[..., ResponseReturnValue]], Callable[..., ResponseReturnValue]]:
        codes = {*errors, 400, 422} | ({401} if login else set()) | ({403} if set(roles) - {"director"} else set())
        operation = Operation("post", summary, self.tag, body, result, status, login, True,
                              tuple(sorted(codes)), description, files=files, roles=roles or (DIRECTOR,),
                              guard=guard)
        return self._route(rule, operation, endpoint)

    def unknown(self, rule: str, known: tuple[str, ...], what: str, status: int = 404) -> None:
        """``rule`` ends in ``<action>``: the actions that are not ``known`` are refused with
        their list (the known ones have routes of their own, which win)."""
        name = "unknown_" + re.sub(r"\W+", "_", rule).strip("_")

        @login_required
        def view(action: str, **_kwargs: Any) -> ResponseReturnValue:
            return jsonify(error=gettext("Unknown %(what)s %(action)s: use one of %(known)s.", what=say(what),
                                         action=repr(action), known=", ".join(known))), status

        self.bp.add_url_rule(self.prefix + rule, name, view, methods=["POST"])
        UNDOCUMENTED.add(f"{self.bp.name}.{name}")

    def _route(self, rule: str, operation: Operation,
               endpoint: str | None) -> Callable[[Callable[..., ResponseReturnValue]], Callable[..., ResponseReturnValue]]:
        def decorate(view: Callable[..., ResponseReturnValue]) -> Callable[..., ResponseReturnValue]:
            name = endpoint or view.__name__

            @functools.wraps(view)
            def handler(**kwargs: Any) -> ResponseReturnValue:
                if operation.guard is not None:  # outside the caller's role: refused before the body is read
                    operation.guard(kwargs)
                if operation.body is not None:
                    kwargs["data"] = read(operation.body, names=names_for(kwargs))
                return view(**kwargs)

            if operation.login and operation.guard is not None and set(operation.roles) - {"director"}:
                handler = role_required(handler)  # any role in; the command says which may
            elif operation.login:  # 401 with the reason, as every director-only route answers
                handler = login_required(handler)

            self.bp.add_url_rule(self.prefix + rule, name, handler, methods=[operation.method.upper()])
            OPERATIONS[f"{self.bp.name}.{name}"] = operation
            return view

        return decorate


# --- the document -------------------------------------------------------------------------------

_ARGUMENT = re.compile(r"<(?:(\w+)(?:\([^)]*\))?:)?(\w+)>")
STATUS_TEXT = {
    200: "Done", 201: "Recorded; the new state", 400: "The security token (X-CSRFToken) was missing or stale",
    401: "Log in as the director first (or a wrong password)", 404: "No such tournament, session, table or player",
    409: "Someone else changed it since your view (a stale expected_seq): nothing was recorded",
    422: "Refused (bad input or against the rules), with the reason: nothing was recorded",
    403: "Outside the caller's role (a table's dealer, the floor): refused with the reason, nothing recorded",
    429: "Too many wrong passwords: wait, then try again",
}


RETRY_TEXT = ("A retry (the same Idempotency-Key) of a command recorded already whose answer was not kept: "
              "nothing more was recorded")

COMMAND_ID_PARAMETER = {
    "name": "Idempotency-Key", "in": "header", "required": False,
    "description": "The command's own id (1 to 100 letters, digits or - _ . :). Sent again after a lost answer, "
    "the command is not done twice: the answer recorded is given again, the same status and body (a 200 with "
    "a notice when that answer was not kept: it held a secret, or the server stopped before answering; the header "
    "Idempotent-Replayed says it is a retry's). The same id with another command is refused with 422. "
    "GET /api/commands/{command_id} says whether it was recorded.",
    "schema": {"type": "string", "pattern": "^[A-Za-z0-9_.:-]{1,100}$"},
}


def _schema(model: type[BaseModel], components: dict[str, Any], mode: str) -> dict[str, str]:
    schema = model.model_json_schema(ref_template="#/components/schemas/{model}", mode=mode)  # type: ignore[arg-type]
    for name, sub in schema.pop("$defs", {}).items():
        components.setdefault(name, sub)
    name = model.__name__
    components.setdefault(name, schema)
    return {"$ref": f"#/components/schemas/{name}"}


def _form_schema(operation: Operation) -> dict[str, Any]:
    """A multipart form's schema: the body's fields, and its files as binary."""
    assert operation.body is not None
    schema = operation.body.model_json_schema(mode="validation")
    schema.pop("$defs", None)
    schema.setdefault("properties", {}).update({name: {"type": "string", "format": "binary"} for name in operation.files})
    schema["required"] = sorted({*schema.get("required", []), *operation.files})
    return schema


def document(app: Flask) -> dict[str, Any]:
    """The OpenAPI 3.1 document of every ``/api/`` route of ``app``."""
    components: dict[str, Any] = {}
    error = _schema(Error, components, "serialization")
    paths: dict[str, dict[str, Any]] = {}
    for rule in sorted(app.url_map.iter_rules(), key=lambda r: r.rule):
        if not rule.rule.startswith("/api/") or rule.endpoint in UNDOCUMENTED:
            continue
        operation = OPERATIONS.get(rule.endpoint)
        if operation is None:
            raise LookupError(f"The route {rule.rule} ({rule.endpoint}) has no declared operation.")
        path = _ARGUMENT.sub(r"{\2}", rule.rule)
        parameters = [
            {"name": arg, "in": "path", "required": True,
             "schema": {"type": "integer", "minimum": 0, "maximum": MAX_ID} if conv == "int" else {"type": "string"}}
            for conv, arg in _ARGUMENT.findall(rule.rule)
        ]
        if operation.method == "post":
            parameters.append(COMMAND_ID_PARAMETER)
        answer: dict[str, Any] = {"description": STATUS_TEXT.get(operation.status, "Done")}
        if operation.produces is not None:
            answer["content"] = {operation.produces: {"schema": {"type": "string", "format": "binary"}}}
        elif operation.result is not None:
            answer["content"] = {"application/json": {"schema": _schema(operation.result, components, "serialization")}}
        responses: dict[str, Any] = {str(operation.status): answer}
        if operation.method == "post":
            again = _schema(RecordedAlready, components, "serialization")
            if operation.status == 200 and "content" in answer and "application/json" in answer["content"]:
                done = answer["content"]["application/json"]["schema"]
                answer["content"]["application/json"]["schema"] = {"anyOf": [done, again]}
            elif operation.status != 200:
                responses["200"] = {"description": RETRY_TEXT, "content": {"application/json": {"schema": again}}}
        for code in operation.errors:
            responses[str(code)] = {"description": STATUS_TEXT[code],
                                    "content": {"application/json": {"schema": error}}}
        item: dict[str, Any] = {
            "summary": operation.summary,
            "operationId": rule.endpoint.replace(".", "_"),
            "tags": [operation.tag],
            "parameters": parameters,
            "responses": responses,
        }
        if operation.description:
            item["description"] = operation.description
        item["x-roles"] = list(operation.roles)
        if operation.body is not None and operation.files:
            item["requestBody"] = {"required": True, "content": {"multipart/form-data": {"schema": _form_schema(operation)}}}
        elif operation.body is not None:
            body_schema = _schema(operation.body, components, "validation")
            required = bool(operation.body.model_json_schema().get("required"))
            item["requestBody"] = {"required": required, "content": {"application/json": {"schema": body_schema}}}
        security: list[dict[str, list[str]]] = []
        if operation.login and operation.csrf and set(operation.roles) - {"director"}:
            security = [{"session": [], "csrf": []}, {"link": []}]
        elif operation.login and operation.csrf:
            security = [{"session": [], "csrf": []}]
        elif operation.login and set(operation.roles) - {"director"}:
            security = [{"session": []}, {"link": []}]  # the floor reads its night's with its link
        elif operation.login:
            security = [{"session": []}]
        elif operation.csrf:
            security = [{"csrf": []}]
        if security:
            item["security"] = security
        paths.setdefault(path, {})[operation.method] = item
    return {
        "openapi": "3.1.0",
        "info": {
            "title": "poker-director",
            "version": "2",
            "description": "Run a home poker tournament or a cash-game night: every action of the "
            "director's and the dealers' pages. Log in with POST /api/login after GET /api/session, "
            "and send the session's CSRF token in the X-CSRFToken header with every POST. Errors are "
            "{\"error\": \"...\"} with a 4xx status; a refused or stale write records nothing. Each operation's "
            "x-roles names who may call it: director, floor, dealer (a table's), cash dealer (a cash table's), "
            "or anyone (no login: what the players read).",
        },
        "paths": paths,
        "components": {
            "schemas": components,
            "securitySchemes": {
                "session": {"type": "apiKey", "in": "cookie", "name": "session"},
                "csrf": {"type": "apiKey", "in": "header", "name": "X-CSRFToken"},
                "link": {"type": "http", "scheme": "bearer",
                         "description": "A link's token (a table's dealer, the floor): that role only, no CSRF token."},
            },
        },
    }
