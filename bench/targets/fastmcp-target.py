"""
Target: the bench flows on FastMCP 4, written the way its docs have a user write a tool that asks
on the 2026-07-28 protocol (docs/servers/elicitation.mdx, "Elicitation on the modern protocol"):
a guard tool that re-runs from the top each round, reads `ctx.input_responses`, and either
returns an `InputRequiredResult` asking the next question or its result. What it knows so far
travels in `request_state` as JSON, which FastMCP seals with AES-256-GCM
(`RequestStateSecurity(keys=[...])`, its multi-replica configuration). Each answer is validated
against the question's Pydantic model, as every target of the bench validates answers against
the schema it asked. Served with `http_app()` on uvicorn. Dev-only comparison code.

The flows' questions, messages and results are bench/flows/bench-flows.ts's; the load generator
checks every reply against them.
"""

from __future__ import annotations

import json
import secrets
from collections.abc import Callable
from dataclasses import dataclass
from typing import Annotated, Any, Literal

from pydantic import BaseModel, Field, ValidationError

from fastmcp import Context, FastMCP
from mcp.server.request_state import RequestStateSecurity
from mcp.types import ElicitRequest, ElicitRequestFormParams, ElicitResult, InputRequiredResult
from python_target_serve import serve

mcp = FastMCP(
    "fastmcp-bench",
    request_state_security=RequestStateSecurity(keys=[secrets.token_bytes(32)], audience="fastmcp-bench"),
)

NonEmpty = Annotated[str, Field(min_length=1)]


@dataclass(frozen=True)
class Question:
    """One form question: its key (also the one field it asks), its model, and its message."""

    key: str
    model: type[BaseModel]
    message: Callable[[dict[str, Any]], str]

    def schema(self) -> dict[str, Any]:
        return _SCHEMAS.setdefault(self.model, self.model.model_json_schema())


_SCHEMAS: dict[type[BaseModel], dict[str, Any]] = {}


class Cancelled(Exception):
    """The user declined or cancelled a question."""


def progress(ctx: Context, rounds: list[list[Question]], arguments: dict[str, Any]) -> InputRequiredResult | dict:
    """The guard: apply this round's answers, then ask what is still missing, or return what is known."""
    state = json.loads(ctx.request_state) if ctx.request_state else None
    round_index: int = state["round"] if state else 0
    known: dict[str, Any] = state["known"] if state else dict(arguments)
    if state is not None:
        answers = ctx.input_responses or {}
        for question in rounds[round_index]:
            answer = answers.get(question.key)
            if not isinstance(answer, ElicitResult):
                continue
            if answer.action != "accept":
                raise Cancelled()
            try:
                content = question.model.model_validate(answer.content)
            except ValidationError:
                continue  # Not an answer to what was asked: ask again.
            known[question.key] = getattr(content, question.key)
        if all(question.key in known for question in rounds[round_index]):
            round_index += 1
    if round_index == len(rounds):
        return known
    requests = {
        question.key: ElicitRequest(
            params=ElicitRequestFormParams(message=question.message(known), requested_schema=question.schema())
        )
        for question in rounds[round_index]
        if question.key not in known
    }
    return InputRequiredResult(
        input_requests=requests, request_state=json.dumps({"round": round_index, "known": known})
    )


# one-question: name, then the greeting.
class Name(BaseModel):
    name: str = Field(title="Name", min_length=1)


ONE_QUESTION = [[Question("name", Name, lambda k: "What is your name?")]]


@mcp.tool(name="bench-one-question")
async def one_question(greeting: NonEmpty, ctx: Context) -> str | InputRequiredResult:
    """Benchmark: asks one question, then answers."""
    try:
        known = progress(ctx, ONE_QUESTION, {"greeting": greeting})
    except Cancelled:
        return "Declined."
    if isinstance(known, InputRequiredResult):
        return known
    return f"{greeting}, {known['name']}!"


# three-question: window, then approver, then confirm, one a round.
class Window(BaseModel):
    window: Literal["now", "tonight", "weekend"] = Field(title="Release window")


class Approver(BaseModel):
    approver: str = Field(title="Approver", min_length=1, max_length=64)


class Deploy(BaseModel):
    confirm: bool = Field(title="Deploy now")


class Release(BaseModel):
    released: bool
    service: str
    version: str
    window: str
    approver: str


THREE_QUESTION = [
    [Question("window", Window, lambda k: f"When should {k['service']} {k['version']} go out?")],
    [Question("approver", Approver, lambda k: f"Who approves {k['service']} {k['version']} ({k['window']})?")],
    [
        Question(
            "confirm",
            Deploy,
            lambda k: f"Deploy {k['service']} {k['version']} ({k['window']}, approved by {k['approver']})?",
        )
    ],
]


@mcp.tool(name="bench-three-question")
async def three_question(service: NonEmpty, version: NonEmpty, ctx: Context) -> Release | InputRequiredResult:
    """Benchmark: asks three questions one after the other (window, approver, confirm), then answers."""
    known = progress(ctx, THREE_QUESTION, {"service": service, "version": version})
    if isinstance(known, InputRequiredResult):
        return known
    return Release(
        released=known["confirm"], service=service, version=version, window=known["window"], approver=known["approver"]
    )


# parallel: size and region at once, then confirm.
class Size(BaseModel):
    size: Literal["small", "medium", "large"] = Field(title="Size")


class Region(BaseModel):
    region: Literal["eu-west", "us-east", "ap-south"] = Field(title="Region")


class Create(BaseModel):
    confirm: bool = Field(title="Create it")


class Database(BaseModel):
    project: str
    size: str
    region: str
    created: bool


PARALLEL = [
    [
        Question("size", Size, lambda k: f"Which size should the database for {k['project']} be?"),
        Question("region", Region, lambda k: "Which region should it run in?"),
    ],
    [Question("confirm", Create, lambda k: f"Create a {k['size']} database for {k['project']} in {k['region']}?")],
]


@mcp.tool(name="bench-parallel")
async def parallel(project: NonEmpty, ctx: Context) -> Database | InputRequiredResult:
    """Benchmark: asks size and region at once (parallel regions), then a confirmation, then answers."""
    known = progress(ctx, PARALLEL, {"project": project})
    if isinstance(known, InputRequiredResult):
        return known
    return Database(project=project, size=known["size"], region=known["region"], created=known["confirm"])


if __name__ == "__main__":
    serve(mcp.http_app())
