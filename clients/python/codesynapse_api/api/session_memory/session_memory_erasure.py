from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.error import Error
from ...models.session_memory_erasure_response_200 import (
    SessionMemoryErasureResponse200,
)
from ...types import UNSET, Response, Unset


def _get_kwargs(
    repo: str,
    *,
    session_id: str | Unset = UNSET,
    x_codesynapse_session: str,
    x_codesynapse_parent_session: str,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    headers["X-Codesynapse-Session"] = x_codesynapse_session

    headers["X-Codesynapse-Parent-Session"] = x_codesynapse_parent_session

    params: dict[str, Any] = {}

    params["session_id"] = session_id

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/api/v1/repos/{repo}/session-memory/erasure".format(
            repo=quote(str(repo), safe=""),
        ),
        "params": params,
    }

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Error | SessionMemoryErasureResponse200 | None:
    if response.status_code == 200:
        response_200 = SessionMemoryErasureResponse200.from_dict(response.json())

        return response_200

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

    if response.status_code == 410:
        response_410 = Error.from_dict(response.json())

        return response_410

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
) -> Response[Error | SessionMemoryErasureResponse200]:
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
    session_id: str | Unset = UNSET,
    x_codesynapse_session: str,
    x_codesynapse_parent_session: str,
) -> Response[Error | SessionMemoryErasureResponse200]:
    """Erasure receipt of a cleared thread memory

     The stored erasure receipt of a cleared session-memory namespace: what clearing THIS thread's memory
    for the repository (or, with session_id, another session's of yours; owners and admins of the
    organisation may name any) removed from each store, and whether each is done: {scope, session_id,
    repo_id, stores: [{store, entities, facts, history, rows?, status}], clears, done, cleared_at,
    updated_at}. A namespace never cleared is 404 not_found; a session you may not read is 404
    session_not_found.

    Runs as the registered session named in the execution headers.

    MCP tool: `get_namespace_erasure`.

    Needs `read` permission on the repository.

    Args:
        repo (str): The repository: its id, or its name within your organisation.
        session_id (str | Unset): The session whose namespace receipt to read (default: this
            thread).
        x_codesynapse_session (str):
        x_codesynapse_parent_session (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | SessionMemoryErasureResponse200]
    """

    kwargs = _get_kwargs(
        repo=repo,
        session_id=session_id,
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
    session_id: str | Unset = UNSET,
    x_codesynapse_session: str,
    x_codesynapse_parent_session: str,
) -> Error | SessionMemoryErasureResponse200 | None:
    """Erasure receipt of a cleared thread memory

     The stored erasure receipt of a cleared session-memory namespace: what clearing THIS thread's memory
    for the repository (or, with session_id, another session's of yours; owners and admins of the
    organisation may name any) removed from each store, and whether each is done: {scope, session_id,
    repo_id, stores: [{store, entities, facts, history, rows?, status}], clears, done, cleared_at,
    updated_at}. A namespace never cleared is 404 not_found; a session you may not read is 404
    session_not_found.

    Runs as the registered session named in the execution headers.

    MCP tool: `get_namespace_erasure`.

    Needs `read` permission on the repository.

    Args:
        repo (str): The repository: its id, or its name within your organisation.
        session_id (str | Unset): The session whose namespace receipt to read (default: this
            thread).
        x_codesynapse_session (str):
        x_codesynapse_parent_session (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | SessionMemoryErasureResponse200
    """

    return sync_detailed(
        repo=repo,
        client=client,
        session_id=session_id,
        x_codesynapse_session=x_codesynapse_session,
        x_codesynapse_parent_session=x_codesynapse_parent_session,
    ).parsed


async def asyncio_detailed(
    repo: str,
    *,
    client: AuthenticatedClient | Client,
    session_id: str | Unset = UNSET,
    x_codesynapse_session: str,
    x_codesynapse_parent_session: str,
) -> Response[Error | SessionMemoryErasureResponse200]:
    """Erasure receipt of a cleared thread memory

     The stored erasure receipt of a cleared session-memory namespace: what clearing THIS thread's memory
    for the repository (or, with session_id, another session's of yours; owners and admins of the
    organisation may name any) removed from each store, and whether each is done: {scope, session_id,
    repo_id, stores: [{store, entities, facts, history, rows?, status}], clears, done, cleared_at,
    updated_at}. A namespace never cleared is 404 not_found; a session you may not read is 404
    session_not_found.

    Runs as the registered session named in the execution headers.

    MCP tool: `get_namespace_erasure`.

    Needs `read` permission on the repository.

    Args:
        repo (str): The repository: its id, or its name within your organisation.
        session_id (str | Unset): The session whose namespace receipt to read (default: this
            thread).
        x_codesynapse_session (str):
        x_codesynapse_parent_session (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | SessionMemoryErasureResponse200]
    """

    kwargs = _get_kwargs(
        repo=repo,
        session_id=session_id,
        x_codesynapse_session=x_codesynapse_session,
        x_codesynapse_parent_session=x_codesynapse_parent_session,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    repo: str,
    *,
    client: AuthenticatedClient | Client,
    session_id: str | Unset = UNSET,
    x_codesynapse_session: str,
    x_codesynapse_parent_session: str,
) -> Error | SessionMemoryErasureResponse200 | None:
    """Erasure receipt of a cleared thread memory

     The stored erasure receipt of a cleared session-memory namespace: what clearing THIS thread's memory
    for the repository (or, with session_id, another session's of yours; owners and admins of the
    organisation may name any) removed from each store, and whether each is done: {scope, session_id,
    repo_id, stores: [{store, entities, facts, history, rows?, status}], clears, done, cleared_at,
    updated_at}. A namespace never cleared is 404 not_found; a session you may not read is 404
    session_not_found.

    Runs as the registered session named in the execution headers.

    MCP tool: `get_namespace_erasure`.

    Needs `read` permission on the repository.

    Args:
        repo (str): The repository: its id, or its name within your organisation.
        session_id (str | Unset): The session whose namespace receipt to read (default: this
            thread).
        x_codesynapse_session (str):
        x_codesynapse_parent_session (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | SessionMemoryErasureResponse200
    """

    return (
        await asyncio_detailed(
            repo=repo,
            client=client,
            session_id=session_id,
            x_codesynapse_session=x_codesynapse_session,
            x_codesynapse_parent_session=x_codesynapse_parent_session,
        )
    ).parsed
