from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.error import Error
from ...models.repository_memory_export_response_200 import (
    RepositoryMemoryExportResponse200,
)
from ...types import Response


def _get_kwargs(
    repo: str,
    *,
    x_codesynapse_session: str,
    x_codesynapse_parent_session: str,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    headers["X-Codesynapse-Session"] = x_codesynapse_session

    headers["X-Codesynapse-Parent-Session"] = x_codesynapse_parent_session

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/api/v1/repos/{repo}/memory/export".format(
            repo=quote(str(repo), safe=""),
        ),
    }

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Error | RepositoryMemoryExportResponse200 | None:
    if response.status_code == 200:
        response_200 = RepositoryMemoryExportResponse200.from_dict(response.json())

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
) -> Response[Error | RepositoryMemoryExportResponse200]:
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
    x_codesynapse_session: str,
    x_codesynapse_parent_session: str,
) -> Response[Error | RepositoryMemoryExportResponse200]:
    """Export the repository's durable memory

     Exports the repository's DURABLE memory as JSON Lines in the `jsonl` field: a header line, the
    nodes, the memory facts with their validity and provenance (origin_session_id, source), the history
    and the single-valued predicates; no embeddings, and not the code graph (ingest derives it from the
    checkout). At most 4096 memory facts. Import it into another repository with
    import_repository_memory. Answers {format, jsonl, nodes, facts, history}.

    Runs as the registered session named in the execution headers.

    MCP tool: `export_repository_memory`.

    Needs `read` permission on the repository.

    Args:
        repo (str): The repository: its id, or its name within your organisation.
        x_codesynapse_session (str):
        x_codesynapse_parent_session (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | RepositoryMemoryExportResponse200]
    """

    kwargs = _get_kwargs(
        repo=repo,
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
    x_codesynapse_session: str,
    x_codesynapse_parent_session: str,
) -> Error | RepositoryMemoryExportResponse200 | None:
    """Export the repository's durable memory

     Exports the repository's DURABLE memory as JSON Lines in the `jsonl` field: a header line, the
    nodes, the memory facts with their validity and provenance (origin_session_id, source), the history
    and the single-valued predicates; no embeddings, and not the code graph (ingest derives it from the
    checkout). At most 4096 memory facts. Import it into another repository with
    import_repository_memory. Answers {format, jsonl, nodes, facts, history}.

    Runs as the registered session named in the execution headers.

    MCP tool: `export_repository_memory`.

    Needs `read` permission on the repository.

    Args:
        repo (str): The repository: its id, or its name within your organisation.
        x_codesynapse_session (str):
        x_codesynapse_parent_session (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | RepositoryMemoryExportResponse200
    """

    return sync_detailed(
        repo=repo,
        client=client,
        x_codesynapse_session=x_codesynapse_session,
        x_codesynapse_parent_session=x_codesynapse_parent_session,
    ).parsed


async def asyncio_detailed(
    repo: str,
    *,
    client: AuthenticatedClient | Client,
    x_codesynapse_session: str,
    x_codesynapse_parent_session: str,
) -> Response[Error | RepositoryMemoryExportResponse200]:
    """Export the repository's durable memory

     Exports the repository's DURABLE memory as JSON Lines in the `jsonl` field: a header line, the
    nodes, the memory facts with their validity and provenance (origin_session_id, source), the history
    and the single-valued predicates; no embeddings, and not the code graph (ingest derives it from the
    checkout). At most 4096 memory facts. Import it into another repository with
    import_repository_memory. Answers {format, jsonl, nodes, facts, history}.

    Runs as the registered session named in the execution headers.

    MCP tool: `export_repository_memory`.

    Needs `read` permission on the repository.

    Args:
        repo (str): The repository: its id, or its name within your organisation.
        x_codesynapse_session (str):
        x_codesynapse_parent_session (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | RepositoryMemoryExportResponse200]
    """

    kwargs = _get_kwargs(
        repo=repo,
        x_codesynapse_session=x_codesynapse_session,
        x_codesynapse_parent_session=x_codesynapse_parent_session,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    repo: str,
    *,
    client: AuthenticatedClient | Client,
    x_codesynapse_session: str,
    x_codesynapse_parent_session: str,
) -> Error | RepositoryMemoryExportResponse200 | None:
    """Export the repository's durable memory

     Exports the repository's DURABLE memory as JSON Lines in the `jsonl` field: a header line, the
    nodes, the memory facts with their validity and provenance (origin_session_id, source), the history
    and the single-valued predicates; no embeddings, and not the code graph (ingest derives it from the
    checkout). At most 4096 memory facts. Import it into another repository with
    import_repository_memory. Answers {format, jsonl, nodes, facts, history}.

    Runs as the registered session named in the execution headers.

    MCP tool: `export_repository_memory`.

    Needs `read` permission on the repository.

    Args:
        repo (str): The repository: its id, or its name within your organisation.
        x_codesynapse_session (str):
        x_codesynapse_parent_session (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | RepositoryMemoryExportResponse200
    """

    return (
        await asyncio_detailed(
            repo=repo,
            client=client,
            x_codesynapse_session=x_codesynapse_session,
            x_codesynapse_parent_session=x_codesynapse_parent_session,
        )
    ).parsed
