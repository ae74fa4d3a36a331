"""
Target: the bench flows on the official Python SDK (`mcp` 2.3), written the way its docs have a
user write a tool that asks (docs/handlers/dependencies.md): an `MCPServer`, each question a
resolver that returns `Elicit(message, Model)`, later questions depending on earlier answers
through `Resolve(...)`, so the SDK asks them round by round, validates each answer against its
Pydantic model and carries the answers in `requestState`, which it seals with AES-256-GCM
(`RequestStateSecurity(keys=[...])`, the multi-instance configuration of docs/run/deploy.md).
Served with `streamable_http_app()` on uvicorn. Dev-only comparison code.

The flows' questions, messages and results are bench/flows/bench-flows.ts's; the load generator
checks every reply against them.
"""

from __future__ import annotations

import secrets
from typing import Annotated, Literal

from pydantic import BaseModel, Field

from mcp.server.mcpserver import Elicit, MCPServer, RequestStateSecurity, Resolve
from python_target_serve import serve

mcp = MCPServer("sdk-python-bench", request_state_security=RequestStateSecurity(keys=[secrets.token_bytes(32)]))

NonEmpty = Annotated[str, Field(min_length=1)]


# one-question: name, then the greeting.
class Name(BaseModel):
    name: str = Field(title="Name", min_length=1)


async def ask_name() -> Elicit[Name]:
    return Elicit("What is your name?", Name)


@mcp.tool(name="bench-one-question")
async def one_question(greeting: NonEmpty, name: Annotated[Name, Resolve(ask_name)]) -> str:
    """Benchmark: asks one question, then answers."""
    return f"{greeting}, {name.name}!"


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


async def ask_window(service: str, version: str) -> Elicit[Window]:
    return Elicit(f"When should {service} {version} go out?", Window)


async def ask_approver(service: str, version: str, window: Annotated[Window, Resolve(ask_window)]) -> Elicit[Approver]:
    return Elicit(f"Who approves {service} {version} ({window.window})?", Approver)


async def ask_deploy(
    service: str,
    version: str,
    window: Annotated[Window, Resolve(ask_window)],
    approver: Annotated[Approver, Resolve(ask_approver)],
) -> Elicit[Deploy]:
    return Elicit(f"Deploy {service} {version} ({window.window}, approved by {approver.approver})?", Deploy)


@mcp.tool(name="bench-three-question")
async def three_question(
    service: NonEmpty,
    version: NonEmpty,
    window: Annotated[Window, Resolve(ask_window)],
    approver: Annotated[Approver, Resolve(ask_approver)],
    deploy: Annotated[Deploy, Resolve(ask_deploy)],
) -> Release:
    """Benchmark: asks three questions one after the other (window, approver, confirm), then answers."""
    return Release(
        released=deploy.confirm, service=service, version=version, window=window.window, approver=approver.approver
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


async def ask_size(project: str) -> Elicit[Size]:
    return Elicit(f"Which size should the database for {project} be?", Size)


async def ask_region() -> Elicit[Region]:
    return Elicit("Which region should it run in?", Region)


async def ask_create(
    project: str, size: Annotated[Size, Resolve(ask_size)], region: Annotated[Region, Resolve(ask_region)]
) -> Elicit[Create]:
    return Elicit(f"Create a {size.size} database for {project} in {region.region}?", Create)


@mcp.tool(name="bench-parallel")
async def parallel(
    project: NonEmpty,
    size: Annotated[Size, Resolve(ask_size)],
    region: Annotated[Region, Resolve(ask_region)],
    create: Annotated[Create, Resolve(ask_create)],
) -> Database:
    """Benchmark: asks size and region at once (parallel regions), then a confirmation, then answers."""
    return Database(project=project, size=size.size, region=region.region, created=create.confirm)


if __name__ == "__main__":
    serve(mcp.streamable_http_app())
