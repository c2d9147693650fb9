from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.error import Error
from ...models.repository_memory_forget_session_body import (
    RepositoryMemoryForgetSessionBody,
)
from ...models.repository_memory_forget_session_response_200 import (
    RepositoryMemoryForgetSessionResponse200,
)
from ...types import Response


def _get_kwargs(
    repo: str,
    *,
    body: RepositoryMemoryForgetSessionBody,
    x_codesynapse_session: str,
    x_codesynapse_parent_session: str,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    headers["X-Codesynapse-Session"] = x_codesynapse_session

    headers["X-Codesynapse-Parent-Session"] = x_codesynapse_parent_session

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/api/v1/repos/{repo}/memory/forget-session".format(
            repo=quote(str(repo), safe=""),
        ),
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Error | RepositoryMemoryForgetSessionResponse200 | None:
    if response.status_code == 200:
        response_200 = RepositoryMemoryForgetSessionResponse200.from_dict(
            response.json()
        )

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

    if response.status_code == 413:
        response_413 = Error.from_dict(response.json())

        return response_413

    if response.status_code == 415:
        response_415 = Error.from_dict(response.json())

        return response_415

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
) -> Response[Error | RepositoryMemoryForgetSessionResponse200]:
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
    body: RepositoryMemoryForgetSessionBody,
    x_codesynapse_session: str,
    x_codesynapse_parent_session: str,
) -> Response[Error | RepositoryMemoryForgetSessionResponse200]:
    """Forget what a session wrote to repository memory

     Repository admins: removes from the repository's DURABLE memory every fact one session promoted or
    wrote (origin_session_id), and the nodes (with their embeddings) that only those facts used; nodes
    other facts still use stay, with their origin cleared, and its history entries; the results of that
    session's finished AI and fix jobs on the repository are erased too, and so are other sessions' AI
    and fix results on the repository whose sources cite a forgotten fact (their idempotency keys go).
    Answers an erasure receipt {scope: "promoted", session_id, stores: [{store, entities, facts,
    history, rows?, status}], done}.

    Runs as the registered session named in the execution headers.

    MCP tool: `forget_session_writes`.

    Needs `admin` permission on the repository.

    Args:
        repo (str): The repository: its id, or its name within your organisation.
        x_codesynapse_session (str):
        x_codesynapse_parent_session (str):
        body (RepositoryMemoryForgetSessionBody):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | RepositoryMemoryForgetSessionResponse200]
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
    body: RepositoryMemoryForgetSessionBody,
    x_codesynapse_session: str,
    x_codesynapse_parent_session: str,
) -> Error | RepositoryMemoryForgetSessionResponse200 | None:
    """Forget what a session wrote to repository memory

     Repository admins: removes from the repository's DURABLE memory every fact one session promoted or
    wrote (origin_session_id), and the nodes (with their embeddings) that only those facts used; nodes
    other facts still use stay, with their origin cleared, and its history entries; the results of that
    session's finished AI and fix jobs on the repository are erased too, and so are other sessions' AI
    and fix results on the repository whose sources cite a forgotten fact (their idempotency keys go).
    Answers an erasure receipt {scope: "promoted", session_id, stores: [{store, entities, facts,
    history, rows?, status}], done}.

    Runs as the registered session named in the execution headers.

    MCP tool: `forget_session_writes`.

    Needs `admin` permission on the repository.

    Args:
        repo (str): The repository: its id, or its name within your organisation.
        x_codesynapse_session (str):
        x_codesynapse_parent_session (str):
        body (RepositoryMemoryForgetSessionBody):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | RepositoryMemoryForgetSessionResponse200
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
    body: RepositoryMemoryForgetSessionBody,
    x_codesynapse_session: str,
    x_codesynapse_parent_session: str,
) -> Response[Error | RepositoryMemoryForgetSessionResponse200]:
    """Forget what a session wrote to repository memory

     Repository admins: removes from the repository's DURABLE memory every fact one session promoted or
    wrote (origin_session_id), and the nodes (with their embeddings) that only those facts used; nodes
    other facts still use stay, with their origin cleared, and its history entries; the results of that
    session's finished AI and fix jobs on the repository are erased too, and so are other sessions' AI
    and fix results on the repository whose sources cite a forgotten fact (their idempotency keys go).
    Answers an erasure receipt {scope: "promoted", session_id, stores: [{store, entities, facts,
    history, rows?, status}], done}.

    Runs as the registered session named in the execution headers.

    MCP tool: `forget_session_writes`.

    Needs `admin` permission on the repository.

    Args:
        repo (str): The repository: its id, or its name within your organisation.
        x_codesynapse_session (str):
        x_codesynapse_parent_session (str):
        body (RepositoryMemoryForgetSessionBody):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | RepositoryMemoryForgetSessionResponse200]
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
    body: RepositoryMemoryForgetSessionBody,
    x_codesynapse_session: str,
    x_codesynapse_parent_session: str,
) -> Error | RepositoryMemoryForgetSessionResponse200 | None:
    """Forget what a session wrote to repository memory

     Repository admins: removes from the repository's DURABLE memory every fact one session promoted or
    wrote (origin_session_id), and the nodes (with their embeddings) that only those facts used; nodes
    other facts still use stay, with their origin cleared, and its history entries; the results of that
    session's finished AI and fix jobs on the repository are erased too, and so are other sessions' AI
    and fix results on the repository whose sources cite a forgotten fact (their idempotency keys go).
    Answers an erasure receipt {scope: "promoted", session_id, stores: [{store, entities, facts,
    history, rows?, status}], done}.

    Runs as the registered session named in the execution headers.

    MCP tool: `forget_session_writes`.

    Needs `admin` permission on the repository.

    Args:
        repo (str): The repository: its id, or its name within your organisation.
        x_codesynapse_session (str):
        x_codesynapse_parent_session (str):
        body (RepositoryMemoryForgetSessionBody):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | RepositoryMemoryForgetSessionResponse200
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
