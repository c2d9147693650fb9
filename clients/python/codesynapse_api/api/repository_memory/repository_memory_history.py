from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.error import Error
from ...models.repository_memory_history_response_200 import (
    RepositoryMemoryHistoryResponse200,
)
from ...types import Response


def _get_kwargs(
    repo: str,
    fact_id: str,
    *,
    x_codesynapse_session: str,
    x_codesynapse_parent_session: str,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    headers["X-Codesynapse-Session"] = x_codesynapse_session

    headers["X-Codesynapse-Parent-Session"] = x_codesynapse_parent_session

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/api/v1/repos/{repo}/memory/facts/{fact_id}/history".format(
            repo=quote(str(repo), safe=""),
            fact_id=quote(str(fact_id), safe=""),
        ),
    }

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Error | RepositoryMemoryHistoryResponse200 | None:
    if response.status_code == 200:
        response_200 = RepositoryMemoryHistoryResponse200.from_dict(response.json())

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

    if response.status_code == 409:
        response_409 = Error.from_dict(response.json())

        return response_409

    if response.status_code == 410:
        response_410 = Error.from_dict(response.json())

        return response_410

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
) -> Response[Error | RepositoryMemoryHistoryResponse200]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    repo: str,
    fact_id: str,
    *,
    client: AuthenticatedClient | Client,
    x_codesynapse_session: str,
    x_codesynapse_parent_session: str,
) -> Response[Error | RepositoryMemoryHistoryResponse200]:
    """History of a durable repository fact

     Every interval during which one fact of the repository's DURABLE memory was current: who wrote it
    (origin_session_id), when (valid_from, valid_to; null while current), why it stopped (superseded or
    retracted), by whose write (ended_by) and which facts replaced it. Oldest first. A repository keeps
    at most 1024 ended intervals. Answers {fact_id, versions: [...]}.

    Runs as the registered session named in the execution headers.

    MCP tool: `repository_fact_history`.

    Needs `read` permission on the repository.

    Args:
        repo (str): The repository: its id, or its name within your organisation.
        fact_id (str): A fact_id of the repository's durable memory ("rf_…").
        x_codesynapse_session (str):
        x_codesynapse_parent_session (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | RepositoryMemoryHistoryResponse200]
    """

    kwargs = _get_kwargs(
        repo=repo,
        fact_id=fact_id,
        x_codesynapse_session=x_codesynapse_session,
        x_codesynapse_parent_session=x_codesynapse_parent_session,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    repo: str,
    fact_id: str,
    *,
    client: AuthenticatedClient | Client,
    x_codesynapse_session: str,
    x_codesynapse_parent_session: str,
) -> Error | RepositoryMemoryHistoryResponse200 | None:
    """History of a durable repository fact

     Every interval during which one fact of the repository's DURABLE memory was current: who wrote it
    (origin_session_id), when (valid_from, valid_to; null while current), why it stopped (superseded or
    retracted), by whose write (ended_by) and which facts replaced it. Oldest first. A repository keeps
    at most 1024 ended intervals. Answers {fact_id, versions: [...]}.

    Runs as the registered session named in the execution headers.

    MCP tool: `repository_fact_history`.

    Needs `read` permission on the repository.

    Args:
        repo (str): The repository: its id, or its name within your organisation.
        fact_id (str): A fact_id of the repository's durable memory ("rf_…").
        x_codesynapse_session (str):
        x_codesynapse_parent_session (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | RepositoryMemoryHistoryResponse200
    """

    return sync_detailed(
        repo=repo,
        fact_id=fact_id,
        client=client,
        x_codesynapse_session=x_codesynapse_session,
        x_codesynapse_parent_session=x_codesynapse_parent_session,
    ).parsed


async def asyncio_detailed(
    repo: str,
    fact_id: str,
    *,
    client: AuthenticatedClient | Client,
    x_codesynapse_session: str,
    x_codesynapse_parent_session: str,
) -> Response[Error | RepositoryMemoryHistoryResponse200]:
    """History of a durable repository fact

     Every interval during which one fact of the repository's DURABLE memory was current: who wrote it
    (origin_session_id), when (valid_from, valid_to; null while current), why it stopped (superseded or
    retracted), by whose write (ended_by) and which facts replaced it. Oldest first. A repository keeps
    at most 1024 ended intervals. Answers {fact_id, versions: [...]}.

    Runs as the registered session named in the execution headers.

    MCP tool: `repository_fact_history`.

    Needs `read` permission on the repository.

    Args:
        repo (str): The repository: its id, or its name within your organisation.
        fact_id (str): A fact_id of the repository's durable memory ("rf_…").
        x_codesynapse_session (str):
        x_codesynapse_parent_session (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | RepositoryMemoryHistoryResponse200]
    """

    kwargs = _get_kwargs(
        repo=repo,
        fact_id=fact_id,
        x_codesynapse_session=x_codesynapse_session,
        x_codesynapse_parent_session=x_codesynapse_parent_session,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    repo: str,
    fact_id: str,
    *,
    client: AuthenticatedClient | Client,
    x_codesynapse_session: str,
    x_codesynapse_parent_session: str,
) -> Error | RepositoryMemoryHistoryResponse200 | None:
    """History of a durable repository fact

     Every interval during which one fact of the repository's DURABLE memory was current: who wrote it
    (origin_session_id), when (valid_from, valid_to; null while current), why it stopped (superseded or
    retracted), by whose write (ended_by) and which facts replaced it. Oldest first. A repository keeps
    at most 1024 ended intervals. Answers {fact_id, versions: [...]}.

    Runs as the registered session named in the execution headers.

    MCP tool: `repository_fact_history`.

    Needs `read` permission on the repository.

    Args:
        repo (str): The repository: its id, or its name within your organisation.
        fact_id (str): A fact_id of the repository's durable memory ("rf_…").
        x_codesynapse_session (str):
        x_codesynapse_parent_session (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | RepositoryMemoryHistoryResponse200
    """

    return (
        await asyncio_detailed(
            repo=repo,
            fact_id=fact_id,
            client=client,
            x_codesynapse_session=x_codesynapse_session,
            x_codesynapse_parent_session=x_codesynapse_parent_session,
        )
    ).parsed
