from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.error import Error
from ...models.session_memory_offload_body import SessionMemoryOffloadBody
from ...models.session_memory_offload_response_202 import (
    SessionMemoryOffloadResponse202,
)
from ...types import Response


def _get_kwargs(
    repo: str,
    *,
    body: SessionMemoryOffloadBody,
    x_codesynapse_session: str,
    x_codesynapse_parent_session: str,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    headers["X-Codesynapse-Session"] = x_codesynapse_session

    headers["X-Codesynapse-Parent-Session"] = x_codesynapse_parent_session

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/api/v1/repos/{repo}/session-memory/offload".format(
            repo=quote(str(repo), safe=""),
        ),
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Error | SessionMemoryOffloadResponse202 | None:
    if response.status_code == 202:
        response_202 = SessionMemoryOffloadResponse202.from_dict(response.json())

        return response_202

    if response.status_code == 400:
        response_400 = Error.from_dict(response.json())

        return response_400

    if response.status_code == 401:
        response_401 = Error.from_dict(response.json())

        return response_401

    if response.status_code == 403:
        response_403 = Error.from_dict(response.json())

        return response_403

    if response.status_code == 404:
        response_404 = Error.from_dict(response.json())

        return response_404

    if response.status_code == 409:
        response_409 = Error.from_dict(response.json())

        return response_409

    if response.status_code == 410:
        response_410 = Error.from_dict(response.json())

        return response_410

    if response.status_code == 413:
        response_413 = Error.from_dict(response.json())

        return response_413

    if response.status_code == 415:
        response_415 = Error.from_dict(response.json())

        return response_415

    if response.status_code == 422:
        response_422 = Error.from_dict(response.json())

        return response_422

    if response.status_code == 500:
        response_500 = Error.from_dict(response.json())

        return response_500

    if response.status_code == 503:
        response_503 = Error.from_dict(response.json())

        return response_503

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Response[Error | SessionMemoryOffloadResponse202]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    repo: str,
    *,
    client: AuthenticatedClient | Client,
    body: SessionMemoryOffloadBody,
    x_codesynapse_session: str,
    x_codesynapse_parent_session: str,
) -> Response[Error | SessionMemoryOffloadResponse202]:
    """Offload conversation turns

     Call this after each finished exchange (or before the context is compacted) with the turns since the
    last call: the local memory extractor keeps what lasts — decisions, corrections, rules, preferences,
    code locations (files, symbols, env vars, commands), versions and figures, ownership, causes of bugs
    and their fixes — as facts in THIS thread's session memory for the repository (never in shared
    repository memory), so recall_context finds them later. A correction replaces the fact it corrects;
    a repeat adds nothing; near the namespace's limits the least useful extracted facts are dropped
    (counted in the namespace read's `extraction`). Turns are redacted before they are queued, held only
    in memory and processed in the background; each fact's source names its turn (the turn's `id`, else
    the answer's offload_id and the turn's position). Answers {accepted, offload_id} at once. At most 64
    turns of 8192 characters.

    Runs as the registered session named in the execution headers.

    MCP tool: `offload_turns`.

    Needs `read` permission on the repository.

    Args:
        repo (str): The repository: its id, or its name within your organisation.
        x_codesynapse_session (str):
        x_codesynapse_parent_session (str):
        body (SessionMemoryOffloadBody):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | SessionMemoryOffloadResponse202]
    """

    kwargs = _get_kwargs(
        repo=repo,
        body=body,
        x_codesynapse_session=x_codesynapse_session,
        x_codesynapse_parent_session=x_codesynapse_parent_session,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    repo: str,
    *,
    client: AuthenticatedClient | Client,
    body: SessionMemoryOffloadBody,
    x_codesynapse_session: str,
    x_codesynapse_parent_session: str,
) -> Error | SessionMemoryOffloadResponse202 | None:
    """Offload conversation turns

     Call this after each finished exchange (or before the context is compacted) with the turns since the
    last call: the local memory extractor keeps what lasts — decisions, corrections, rules, preferences,
    code locations (files, symbols, env vars, commands), versions and figures, ownership, causes of bugs
    and their fixes — as facts in THIS thread's session memory for the repository (never in shared
    repository memory), so recall_context finds them later. A correction replaces the fact it corrects;
    a repeat adds nothing; near the namespace's limits the least useful extracted facts are dropped
    (counted in the namespace read's `extraction`). Turns are redacted before they are queued, held only
    in memory and processed in the background; each fact's source names its turn (the turn's `id`, else
    the answer's offload_id and the turn's position). Answers {accepted, offload_id} at once. At most 64
    turns of 8192 characters.

    Runs as the registered session named in the execution headers.

    MCP tool: `offload_turns`.

    Needs `read` permission on the repository.

    Args:
        repo (str): The repository: its id, or its name within your organisation.
        x_codesynapse_session (str):
        x_codesynapse_parent_session (str):
        body (SessionMemoryOffloadBody):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | SessionMemoryOffloadResponse202
    """

    return sync_detailed(
        repo=repo,
        client=client,
        body=body,
        x_codesynapse_session=x_codesynapse_session,
        x_codesynapse_parent_session=x_codesynapse_parent_session,
    ).parsed


async def asyncio_detailed(
    repo: str,
    *,
    client: AuthenticatedClient | Client,
    body: SessionMemoryOffloadBody,
    x_codesynapse_session: str,
    x_codesynapse_parent_session: str,
) -> Response[Error | SessionMemoryOffloadResponse202]:
    """Offload conversation turns

     Call this after each finished exchange (or before the context is compacted) with the turns since the
    last call: the local memory extractor keeps what lasts — decisions, corrections, rules, preferences,
    code locations (files, symbols, env vars, commands), versions and figures, ownership, causes of bugs
    and their fixes — as facts in THIS thread's session memory for the repository (never in shared
    repository memory), so recall_context finds them later. A correction replaces the fact it corrects;
    a repeat adds nothing; near the namespace's limits the least useful extracted facts are dropped
    (counted in the namespace read's `extraction`). Turns are redacted before they are queued, held only
    in memory and processed in the background; each fact's source names its turn (the turn's `id`, else
    the answer's offload_id and the turn's position). Answers {accepted, offload_id} at once. At most 64
    turns of 8192 characters.

    Runs as the registered session named in the execution headers.

    MCP tool: `offload_turns`.

    Needs `read` permission on the repository.

    Args:
        repo (str): The repository: its id, or its name within your organisation.
        x_codesynapse_session (str):
        x_codesynapse_parent_session (str):
        body (SessionMemoryOffloadBody):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | SessionMemoryOffloadResponse202]
    """

    kwargs = _get_kwargs(
        repo=repo,
        body=body,
        x_codesynapse_session=x_codesynapse_session,
        x_codesynapse_parent_session=x_codesynapse_parent_session,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    repo: str,
    *,
    client: AuthenticatedClient | Client,
    body: SessionMemoryOffloadBody,
    x_codesynapse_session: str,
    x_codesynapse_parent_session: str,
) -> Error | SessionMemoryOffloadResponse202 | None:
    """Offload conversation turns

     Call this after each finished exchange (or before the context is compacted) with the turns since the
    last call: the local memory extractor keeps what lasts — decisions, corrections, rules, preferences,
    code locations (files, symbols, env vars, commands), versions and figures, ownership, causes of bugs
    and their fixes — as facts in THIS thread's session memory for the repository (never in shared
    repository memory), so recall_context finds them later. A correction replaces the fact it corrects;
    a repeat adds nothing; near the namespace's limits the least useful extracted facts are dropped
    (counted in the namespace read's `extraction`). Turns are redacted before they are queued, held only
    in memory and processed in the background; each fact's source names its turn (the turn's `id`, else
    the answer's offload_id and the turn's position). Answers {accepted, offload_id} at once. At most 64
    turns of 8192 characters.

    Runs as the registered session named in the execution headers.

    MCP tool: `offload_turns`.

    Needs `read` permission on the repository.

    Args:
        repo (str): The repository: its id, or its name within your organisation.
        x_codesynapse_session (str):
        x_codesynapse_parent_session (str):
        body (SessionMemoryOffloadBody):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | SessionMemoryOffloadResponse202
    """

    return (
        await asyncio_detailed(
            repo=repo,
            client=client,
            body=body,
            x_codesynapse_session=x_codesynapse_session,
            x_codesynapse_parent_session=x_codesynapse_parent_session,
        )
    ).parsed
